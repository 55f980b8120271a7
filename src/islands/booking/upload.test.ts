import { describe, expect, it } from 'vitest';
import { ApiError } from '../shared/api.ts';
import { readSignature, uploadResultFrom } from './upload.ts';
import { parsePlaces } from './geocode.ts';

const FILE = { filename: '3f1c.png', originalName: 'logo.png', fileSize: 70, mimeType: 'image/png' };

describe('uploadResultFrom', () => {
  it('returns the stored file record on 201', () => {
    expect(uploadResultFrom(201, 'Created', JSON.stringify(FILE))).toEqual(FILE);
  });

  it.each([
    [413, JSON.stringify({ error: 'Files must be 10MB or smaller' }), 'Files must be 10MB or smaller'],
    [415, JSON.stringify({ error: 'Only PNG, JPG, SVG and PDF files are accepted' }), 'Only PNG, JPG, SVG and PDF files are accepted'],
    [502, 'Bad gateway', '502: Bad gateway'],
    [500, '', '500: Internal Server Error'],
  ])('turns %i into an ApiError with the server’s message', (status, text, message) => {
    let caught: unknown;
    try {
      uploadResultFrom(status, 'Internal Server Error', text);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ApiError);
    expect(caught).toMatchObject({ status, message });
  });

  it('refuses a success answer that is not a file record', () => {
    expect(() => uploadResultFrom(200, 'OK', '{"ok":true}')).toThrow('The upload answer was not understood');
  });
});

describe('readSignature', () => {
  it('reads the signature route’s answer', () => {
    expect(readSignature({ publicKey: 'demo', signature: 'abc', expire: 1_790_000_000 })).toEqual({ signature: 'abc', expire: '1790000000' });
  });

  it('refuses an answer without a signature', () => {
    expect(() => readSignature({ expire: 1 })).toThrow(ApiError);
  });
});

describe('parsePlaces', () => {
  it('keeps well-formed places only', () => {
    expect(
      parsePlaces([
        { address: 'Grey Street, Newcastle upon Tyne', lat: 54.9718, lng: -1.6126 },
        { address: '', lat: 1, lng: 2 },
        { address: 'No coordinates' },
        null,
      ]),
    ).toEqual([{ address: 'Grey Street, Newcastle upon Tyne', lat: 54.9718, lng: -1.6126 }]);
    expect(parsePlaces({ error: 'Address lookup is unavailable right now' })).toEqual([]);
  });
});

import { useEffect, useRef, useState, type DragEvent } from 'react';
import { useStore } from '@nanostores/react';
import { formatFileSize } from '../../domain/format.ts';
import { showToast } from '../shared/toast-store.ts';
import { ApiError } from '../shared/api.ts';
import {
  $uploads,
  ACCEPT_ATTRIBUTE,
  FILES_KEY,
  addUpload,
  fileRejectionReason,
  removeUpload,
  updateUpload,
  uploadStatusText,
} from './booking-store.ts';
import { FieldError, controlId, errorId, hintId } from './Field.tsx';
import { uploadBrandingFile } from './upload.ts';

// Section 5, "Upload Branding Assets" (public-site.md §2, §5, §8): drag and drop or the file
// picker, one upload per file with its own progress bar, the spec's toasts, a remove button.
// Files the form cannot take are dropped, with a quiet note saying why (the spec drops them
// silently; the note is there so nobody wonders where their file went).

export interface UploadFieldProps {
  uploadcarePublicKey?: string;
  error?: string;
}

export function UploadField({ uploadcarePublicKey, error }: UploadFieldProps) {
  const uploads = useStore($uploads);
  const [notes, setNotes] = useState<string[]>([]);
  const [isDragging, setIsDragging] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  const controllers = useRef(new Map<number, AbortController>());

  useEffect(() => {
    const running = controllers.current;
    return () => running.forEach((controller) => controller.abort());
  }, []);

  async function upload(file: File) {
    const id = addUpload(file);
    const controller = new AbortController();
    controllers.current.set(id, controller);
    try {
      const result = await uploadBrandingFile(file, {
        uploadcarePublicKey,
        signal: controller.signal,
        onProgress: (fraction) => updateUpload(id, { progress: Math.min(fraction, 1) }),
      });
      updateUpload(id, { status: 'done', progress: 1, result });
      showToast({ title: 'File uploaded', description: `${file.name} has been uploaded successfully`, variant: 'success' });
    } catch (failure) {
      if (controller.signal.aborted) return;
      const reason = failure instanceof ApiError ? failure.message : 'The upload did not finish';
      updateUpload(id, { status: 'failed', error: reason });
      showToast({ title: 'Upload failed', description: `Failed to upload ${file.name}`, variant: 'destructive' });
    } finally {
      controllers.current.delete(id);
    }
  }

  function accept(files: FileList | File[]) {
    const chosen = Array.from(files);
    const rejected: string[] = [];
    for (const file of chosen) {
      const reason = fileRejectionReason(file);
      if (reason) rejected.push(reason);
      else void upload(file);
    }
    setNotes(rejected);
  }

  function remove(id: number) {
    controllers.current.get(id)?.abort();
    controllers.current.delete(id);
    removeUpload(id);
  }

  function onDrop(event: DragEvent<HTMLDivElement>) {
    event.preventDefault();
    setIsDragging(false);
    if (event.dataTransfer.files.length) accept(event.dataTransfer.files);
  }

  const name = 'files';
  const describedBy = [hintId(name), error ? errorId(FILES_KEY) : null, notes.length ? `${controlId(name)}-notes` : null]
    .filter(Boolean)
    .join(' ');

  return (
    <div>
      <p id={hintId(name)} className="text-concrete-700">
        Add your logo or artwork so we can design your stencil. PNG, JPG, SVG or PDF, up to 10MB each. You can also
        send files later.
      </p>
      <FieldError name={FILES_KEY} error={error} />
      <div
        className={`mt-3 flex flex-col items-center justify-center gap-3 rounded-2xl border-2 border-dashed px-5 py-8 text-center transition-colors ${
          isDragging ? 'border-accent-600 bg-accent-50' : error ? 'border-danger-600 bg-white' : 'border-concrete-300 bg-concrete-50/60'
        }`}
        onDragEnter={(event) => {
          event.preventDefault();
          setIsDragging(true);
        }}
        onDragOver={(event) => event.preventDefault()}
        onDragLeave={(event) => {
          if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setIsDragging(false);
        }}
        onDrop={onDrop}
        data-testid="upload-dropzone"
      >
        <svg width="40" height="40" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" strokeLinejoin="round" className="text-accent-700" aria-hidden="true">
          <path d="M12 16V4M7 9l5-5 5 5" />
          <path d="M4 15v3a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2v-3" />
        </svg>
        <p className="hidden text-concrete-700 sm:block">Drag and drop files here, or</p>
        <input
          ref={inputRef}
          id={controlId(name)}
          type="file"
          multiple
          accept={ACCEPT_ATTRIBUTE}
          className="peer sr-only"
          aria-describedby={describedBy}
          aria-invalid={error ? true : undefined}
          onChange={(event) => {
            if (event.target.files?.length) accept(event.target.files);
            // Choosing the same file again after removing it should upload it again.
            event.target.value = '';
          }}
        />
        <label
          htmlFor={controlId(name)}
          className="btn-secondary cursor-pointer peer-focus-visible:outline-3 peer-focus-visible:outline-offset-3 peer-focus-visible:outline-accent-600"
        >
          Choose files
        </label>
      </div>

      <div id={`${controlId(name)}-notes`} role="status">
        {notes.length > 0 && (
          <ul className="mt-3 space-y-1 text-sm text-concrete-700">
            {notes.map((note) => (
              <li key={note} className="flex gap-2">
                <svg className="mt-0.5 shrink-0 text-warning-700" width="16" height="16" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" aria-hidden="true">
                  <circle cx="12" cy="12" r="9.5" />
                  <path d="M12 7v6M12 16.5v.5" />
                </svg>
                {note}
              </li>
            ))}
          </ul>
        )}
      </div>

      {uploads.length > 0 && (
        <ul className="mt-4 space-y-2" aria-label="Uploaded files">
          {uploads.map((item) => {
            const percent = Math.round(item.progress * 100);
            const status = uploadStatusText(item);
            return (
              <li key={item.id} className="rounded-2xl border border-concrete-200 bg-white py-2 pr-2 pl-4" data-testid="upload-item">
                <div className="flex items-center gap-3">
                  <FileIcon status={item.status} />
                  <div className="min-w-0 flex-1">
                    <p className="truncate font-medium" title={item.name}>
                      {item.name}
                    </p>
                    <p className={`text-sm ${item.status === 'failed' ? 'text-danger-600' : 'text-concrete-600'}`}>
                      {formatFileSize(item.size)} · {status}
                    </p>
                  </div>
                  <button
                    type="button"
                    className="inline-flex min-h-11 shrink-0 items-center rounded-full px-3 text-sm font-semibold text-danger-600 hover:bg-danger-50"
                    onClick={() => remove(item.id)}
                  >
                    Remove<span className="sr-only"> {item.name}</span>
                  </button>
                </div>
                {/* A file kept from an earlier booking was never uploaded here: no progress to show. */}
                {item.fromBooking === undefined && (
                  <div
                    role="progressbar"
                    aria-label={`Upload progress for ${item.name}`}
                    aria-valuemin={0}
                    aria-valuemax={100}
                    aria-valuenow={percent}
                    className="mt-2 mr-2 h-1.5 overflow-hidden rounded-full bg-concrete-100"
                  >
                    <div
                      className={`h-full rounded-full transition-[width] ${item.status === 'failed' ? 'bg-danger-600' : 'bg-accent-500'}`}
                      style={{ width: `${item.status === 'failed' ? 100 : percent}%` }}
                    />
                  </div>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}

function FileIcon({ status }: { status: 'uploading' | 'done' | 'failed' }) {
  const colour = status === 'done' ? 'text-accent-700' : status === 'failed' ? 'text-danger-600' : 'text-concrete-500';
  return (
    <svg className={`shrink-0 ${colour}`} width="24" height="24" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
      <path d="M14 3H7a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2V8z" />
      <path d="M14 3v5h5" />
      {status === 'done' && <path d="M9 14.5l2 2 4-4" />}
      {status === 'failed' && <path d="M10 12l4 4M14 12l-4 4" />}
    </svg>
  );
}

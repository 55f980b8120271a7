import { useEffect, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { isCrewPhoto, PhotoProof } from './PhotoProof.tsx';
import { formatFileSize } from '../../../domain/format.ts';
import { PROJECT_STEPS } from '../../../domain/project-steps.ts';
import { adminApi as api } from '../admin-api.ts';
import { showToast } from '../../shared/toast-store.ts';
import { INPUT_CLASS, LABEL_CLASS } from '../../shared/FormField.tsx';
import { preparePhoto } from './scale-image.ts';
import { PHOTO_TYPES, type ProjectPhoto } from './types.ts';

// admin-dashboard.md §5 and §8, word for word.
const INVALID_FILE = { title: 'Invalid File', description: 'Please select an image file.' };
const MISSING_INFORMATION = { title: 'Missing Information', description: 'Please select a file and photo type.' };

const isImage = (file: File) => file.type.startsWith('image/');

interface PhotoManagerProps {
  bookingId: number;
  currentStep: number;
  photos: ProjectPhoto[];
  onChanged: () => void;
}

/**
 * A project's photos: upload (scaled in the browser first) and a grid of thumbnails, each of which
 * staff can hide from the customer (and show again) or delete. A hidden photo stays here, marked.
 */
export function PhotoManager({ bookingId, currentStep, photos, onChanged }: PhotoManagerProps) {
  const [file, setFile] = useState<File | null>(null);
  const [photoType, setPhotoType] = useState('');
  const [step, setStep] = useState(String(currentStep));
  const [description, setDescription] = useState('');
  const [busy, setBusy] = useState(false);
  const [open, setOpen] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);
  const id = (name: string) => `photo-${name}-${bookingId}`;
  // The step follows the project: after a step update the default is the new current step.
  useEffect(() => setStep(String(currentStep)), [currentStep]);

  const clearFile = () => {
    setFile(null);
    if (fileInput.current) fileInput.current.value = '';
  };

  const chooseFile = (event: ChangeEvent<HTMLInputElement>) => {
    const chosen = event.target.files?.[0] ?? null;
    if (chosen && !isImage(chosen)) {
      showToast({ ...INVALID_FILE, variant: 'destructive' });
      clearFile();
      return;
    }
    setFile(chosen);
  };

  const upload = async (event: FormEvent) => {
    event.preventDefault();
    if (!file || !photoType) {
      showToast({ ...MISSING_INFORMATION, variant: 'destructive' });
      return;
    }
    setBusy(true);
    try {
      let prepared;
      try {
        prepared = await preparePhoto(file);
      } catch {
        // The browser could not decode it: not an image, whatever its name says.
        showToast({ ...INVALID_FILE, variant: 'destructive' });
        return;
      }
      const form = new FormData();
      form.set('photo', prepared.photo);
      form.set('thumbnail', prepared.thumbnail);
      form.set('photoType', photoType);
      form.set('step', step);
      if (description.trim()) form.set('description', description.trim());
      await api(`/api/bookings/${bookingId}/photos`, { method: 'POST', body: form });
      showToast({ title: 'Photo Uploaded', description: `The ${photoType} photo was added to booking #${bookingId}.`, variant: 'success' });
      clearFile();
      setPhotoType('');
      setDescription('');
      onChanged();
    } catch (error) {
      showToast({ title: 'Upload Failed', description: `Upload failed: ${(error as Error).message}`, variant: 'destructive' });
    } finally {
      setBusy(false);
    }
  };

  const remove = async (photo: ProjectPhoto) => {
    if (!window.confirm(`Delete this ${photo.photoType} photo (${photo.originalName})? This cannot be undone.`)) return;
    setBusy(true);
    try {
      await api(`/api/photos/${photo.id}`, { method: 'DELETE' });
      showToast({ title: 'Photo Deleted', description: `The ${photo.photoType} photo was removed.`, variant: 'success' });
      onChanged();
    } catch (error) {
      showToast({ title: 'Delete Failed', description: (error as Error).message, variant: 'destructive' });
    } finally {
      setBusy(false);
    }
  };

  const setHidden = async (photo: ProjectPhoto, hidden: boolean) => {
    setBusy(true);
    try {
      await api(`/api/photos/${photo.id}/${hidden ? 'hide' : 'show'}`, { method: 'POST' });
      showToast(
        hidden
          ? { title: 'Photo Hidden', description: `The customer no longer sees this ${photo.photoType} photo.`, variant: 'success' }
          : { title: 'Photo Shown', description: `The customer sees this ${photo.photoType} photo again.`, variant: 'success' },
      );
      onChanged();
    } catch (error) {
      showToast({ title: 'Update Failed', description: (error as Error).message, variant: 'destructive' });
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-labelledby={id('heading')} className="border-t border-concrete-100 pt-4">
      <h4 id={id('heading')} className="text-base">
        Photos ({photos.length})
      </h4>
      {/* Folded away by default: on a phone the form would otherwise fill the screen for every project. */}
      <details data-change className="group mt-3" open={open} onToggle={(event) => setOpen(event.currentTarget.open)}>
        <summary className="inline-flex min-h-11 cursor-pointer items-center gap-2 rounded-full border border-concrete-300 bg-white px-4 text-sm font-semibold hover:border-ink">
          Upload a photo
        </summary>
        <form onSubmit={upload} className="mt-3 grid gap-3 sm:grid-cols-2">
          <div className="sm:col-span-2">
            <label htmlFor={id('file')} className={LABEL_CLASS}>
              Photo
            </label>
            <input
              ref={fileInput}
              id={id('file')}
              type="file"
              accept="image/*"
              onChange={chooseFile}
              className="mt-2 block w-full min-h-11 text-base sm:text-sm file:mr-3 file:min-h-11 file:rounded-full file:border file:border-concrete-300 file:bg-white file:px-4 file:font-semibold"
            />
          </div>
          <div>
            <label htmlFor={id('type')} className={LABEL_CLASS}>
              Photo type
            </label>
            <select id={id('type')} className={`mt-2 ${INPUT_CLASS}`} value={photoType} onChange={(event) => setPhotoType(event.target.value)}>
              <option value="">Select type</option>
              {PHOTO_TYPES.map((type) => (
                <option key={type} value={type}>
                  {type[0]!.toUpperCase() + type.slice(1)}
                </option>
              ))}
            </select>
          </div>
          <div>
            <label htmlFor={id('step')} className={LABEL_CLASS}>
              Step
            </label>
            <select id={id('step')} className={`mt-2 ${INPUT_CLASS}`} value={step} onChange={(event) => setStep(event.target.value)}>
              {PROJECT_STEPS.map((projectStep) => (
                <option key={projectStep.step} value={projectStep.step}>
                  {projectStep.step}. {projectStep.name}
                </option>
              ))}
            </select>
          </div>
          <div className="sm:col-span-2">
            <label htmlFor={id('description')} className={LABEL_CLASS}>
              Description <span className="font-normal text-concrete-600">(optional)</span>
            </label>
            <input
              id={id('description')}
              className={`mt-2 ${INPUT_CLASS}`}
              value={description}
              maxLength={500}
              onChange={(event) => setDescription(event.target.value)}
            />
          </div>
          <div className="sm:col-span-2">
            <button type="submit" className="btn-primary w-full disabled:opacity-50 sm:w-auto" disabled={busy}>
              {busy ? 'Working…' : 'Upload Photo'}
            </button>
          </div>
        </form>
      </details>

      {photos.length > 0 && (
        <p className="mt-3 text-sm text-concrete-600">
          Hide takes a photo off everything the customer sees: the tracking page, e-mails, the campaign report and the public project page. It stays
          here for staff.
        </p>
      )}
      {photos.length > 0 && (
        <ul className="mt-4 grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-4" aria-label={`Photos of booking #${bookingId}`}>
          {photos.map((photo) => (
            <li
              key={photo.id}
              className={`overflow-hidden rounded-xl border bg-paper ${photo.hiddenAt ? 'border-warning-700 border-dashed' : 'border-concrete-100'}`}
              data-testid="project-photo"
            >
              <a href={`/uploads/${photo.fileName}`} target="_blank" rel="noopener" className="block">
                <img
                  src={`/uploads/${photo.thumbnailFileName ?? photo.fileName}`}
                  alt={photo.description || `${photo.photoType} photo, step ${photo.step}`}
                  loading="lazy"
                  className={`aspect-[4/3] w-full bg-concrete-100 object-cover ${photo.hiddenAt ? 'opacity-60' : ''}`}
                />
              </a>
              <div className="p-2 text-sm">
                {photo.hiddenAt && (
                  <p className="mb-1 inline-block rounded-md bg-warning-50 px-2 py-0.5 text-xs font-bold text-warning-700" data-testid="photo-hidden">
                    Hidden from customer
                  </p>
                )}
                <p className="font-semibold capitalize">{photo.photoType}</p>
                <p className="text-concrete-600">
                  Step {photo.step} · {formatFileSize(photo.fileSize)}
                </p>
                {isCrewPhoto(photo) && (
                  <PhotoProof
                    className="mt-1"
                    photo={{
                      takenAt: photo.takenAt ?? null,
                      createdAt: photo.createdAt,
                      lat: photo.lat ?? null,
                      lng: photo.lng ?? null,
                      accuracyM: photo.accuracyM ?? null,
                      workerName: photo.workerName ?? null,
                    }}
                  />
                )}
                {photo.hiddenAt && photo.hiddenByName && <p className="text-concrete-600">Hidden by {photo.hiddenByName}</p>}
                <div className="mt-1 flex flex-wrap gap-x-4">
                  <button data-change
                    type="button"
                    className="min-h-11 font-semibold text-ink underline-offset-2 hover:underline disabled:opacity-50"
                    disabled={busy}
                    onClick={() => void setHidden(photo, !photo.hiddenAt)}
                  >
                    {photo.hiddenAt ? 'Show' : 'Hide'}
                    <span className="sr-only">
                      {photo.hiddenAt ? ` ${photo.photoType} photo ${photo.originalName} to the customer` : ` ${photo.photoType} photo ${photo.originalName} from the customer`}
                    </span>
                  </button>
                  <button data-change
                    type="button"
                    className="min-h-11 font-semibold text-danger-600 underline-offset-2 hover:underline disabled:opacity-50"
                    disabled={busy}
                    onClick={() => void remove(photo)}
                    aria-label={`Delete ${photo.photoType} photo ${photo.originalName}`}
                  >
                    Delete
                  </button>
                </div>
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

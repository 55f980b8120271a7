// The Projects tab's view of GET /api/admin/projects (server: services/projects/project-progress.ts).
// Declared here rather than imported so no server module is pulled into the browser bundle.

import type { ProofSummary } from '../../../domain/proofs.ts';

export interface ProgressLog {
  id: number;
  step: number;
  stepName: string;
  status: string;
  notes: string | null;
  /** Who wrote it (a staff member's name); null for older notes, crews and the system. */
  author: string | null;
  createdAt: string;
}

export interface ProjectPhoto {
  id: number;
  fileName: string;
  thumbnailFileName: string | null;
  originalName: string;
  photoType: 'before' | 'during' | 'after' | 'reference';
  step: number;
  description: string | null;
  fileSize: number;
  createdAt: string;
  /** Crew proof (staff only): when the phone took it, where, and the worker who sent it. */
  takenAt?: string | null;
  lat?: number | null;
  lng?: number | null;
  accuracyM?: number | null;
  workerId?: number | null;
  workerName?: string | null;
  /** When staff hid it from the customer, and who; null while the customer sees it. */
  hiddenAt?: string | null;
  hiddenByName?: string | null;
}

export interface Project {
  id: number;
  firstName: string;
  lastName: string;
  email: string;
  quantity: number;
  totalPrice: number;
  preferredDate: string;
  status: string;
  currentStep: number;
  statusNotes: string | null;
  consultationDate: string | null;
  stencilApprovedDate: string | null;
  installationDate: string | null;
  completionDate: string | null;
  isTest: boolean;
  progressLogs: ProgressLog[];
  photos: ProjectPhoto[];
  photoCount: number;
  /** The latest stencil proof's state; null until staff send one. */
  proof: ProofSummary | null;
}

export const PHOTO_TYPES = ['before', 'during', 'after', 'reference'] as const;

/** A crew's progress on an installation day, when the list row carries it. */
export interface ProjectCrew {
  status: string;
  at: string | null;
  workerName: string | null;
}

/** A row of the paged Projects list (GET /api/admin/projects): the full card's data and more. */
export interface ProjectRow extends Project {
  /** The crew is expected today (London): these rows come first. */
  isToday: boolean;
  crew?: ProjectCrew | null;
}

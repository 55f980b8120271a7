import { atom } from 'nanostores';
import { useStore } from '@nanostores/react';
import type { StaffRole } from '../../domain/staff-roles.ts';

/** The signed-in person, from GET /api/admin/session; null while signed out. */
export interface SignedInStaff {
  id: number;
  name: string;
  email: string;
  role: StaffRole;
  /** False while the account still has the bootstrap owner's placeholder name: the dashboard asks for one. */
  nameChosen?: boolean;
}

export const $staffUser = atom<SignedInStaff | null>(null);

/** Whether the signed-in person may change things (staff and owners); viewers only read. */
export function useCanChange(): boolean {
  const user = useStore($staffUser);
  return user !== null && user.role !== 'viewer';
}

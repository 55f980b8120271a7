import { api } from '../shared/api.ts';
import { describeDevice } from '../../domain/device-name.ts';

/**
 * Registers a passkey for the signed-in person (api.md "Staff accounts"). The WebAuthn helper
 * loads only here, when someone adds a passkey, so the dashboard's first load does not carry it.
 */
export async function addPasskey(name: string): Promise<void> {
  const { startRegistration } = await import('@simplewebauthn/browser');
  const options = await api<Parameters<typeof startRegistration>[0]['optionsJSON']>('/api/admin/passkeys/register/options', { method: 'POST' });
  const response = await startRegistration({ optionsJSON: options });
  await api('/api/admin/passkeys/register', { body: { name, response } });
}

/** A name that tells this device's passkey from others: "Chrome on Android". */
export const deviceName = () => describeDevice(typeof navigator === 'undefined' ? null : navigator.userAgent);

/** The message to show when adding a passkey did not work. */
export function passkeyError(error: unknown): string {
  if (error instanceof Error && (error.name === 'NotAllowedError' || error.name === 'AbortError')) return 'No passkey was created.';
  return error instanceof Error ? error.message : 'The passkey could not be saved.';
}

import { useState } from 'react';
import { Modal } from '../projects/Modal.tsx';
import { NameForm } from './NameForm.tsx';

/**
 * The first sign-in's question for a person whose account still has a placeholder name (the
 * bootstrap owner's "Owner"): one slim line above the work, opening a dialog with the name field,
 * so the Projects list still starts near the top of a phone's screen.
 */
export function NamePrompt({ current }: { current: string }) {
  const [open, setOpen] = useState(false);
  return (
    <div className="mt-2 flex items-center justify-between gap-2 rounded-xl bg-warning-50 px-3 py-1 text-sm text-warning-700" data-testid="name-prompt">
      <span className="min-w-0">Notes and logs call you &ldquo;{current}&rdquo;.</span>
      <button type="button" className="min-h-11 shrink-0 rounded-lg px-2 font-semibold text-ink underline" onClick={() => setOpen(true)}>
        Add your name
      </button>
      <Modal open={open} title="What should the team call you?" description="Your name shows in invitations, progress notes and the Logs. You can change it later in My account." onClose={() => setOpen(false)}>
        <NameForm initial="" onSaved={() => setOpen(false)} />
      </Modal>
    </div>
  );
}

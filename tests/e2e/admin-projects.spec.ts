import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { bookingPayload, setupBookingHeaders } from '../fixtures/bookings.ts';
import { signInAsStaff } from '../fixtures/staff-setup.ts';

const LOGO = fileURLToPath(new URL('../fixtures/logo.png', import.meta.url));

// Staff update progress on site, so the whole flow runs on the phone; it books its own project
// so it never races another test over the seeded ones.
test('@mobile a project goes through the five steps with a note, a photo hidden from the customer and shown again, and a deleted log', async ({ page, request, baseURL }) => {
  // Five steps, a note, a scaled photo upload, hiding it, an axe pass and a deletion: more than the default budget on a busy machine.
  test.slow();
  const created = await request.post('/api/bookings', {
    headers: setupBookingHeaders(baseURL!),
    data: bookingPayload({ firstName: 'Rosa', lastName: 'Marlow', email: 'rosa@marlowbakery.co.uk', preferredDate: '2027-10-12' }),
  });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as { id: number };

  await signInAsStaff(page);
  // The list shows one row per project; the search finds it and the row opens its full card.
  await page.getByLabel('Search projects').fill('Marlow');
  const row = page.getByTestId('project-row').filter({ hasText: 'Rosa Marlow' });
  await expect(page.getByTestId('project-row')).toHaveCount(1);
  await expect(row).toContainText('1/5');
  await row.getByRole('button', { name: `#${id} Rosa Marlow` }).click();
  const card = page.getByTestId('project').filter({ hasText: `Booking #${id} - Rosa Marlow` });
  await expect(card).toContainText('Step 1 of 5');
  await expect(card).toContainText('10 patches');
  await expect(card.getByRole('button', { name: /^Schedule/ })).toBeDisabled();

  // Escape closes a step dialog and gives focus back to its button.
  const consult = card.getByRole('button', { name: /^Consult/ });
  await consult.click();
  const firstDialog = page.getByRole('dialog', { name: 'Step 1: Design Consultation' });
  await expect(firstDialog.getByLabel('Progress notes (optional)')).toHaveValue('Updated to step 1: Design Consultation');
  await page.keyboard.press('Escape');
  await expect(firstDialog).toBeHidden();
  await expect(consult).toBeFocused();

  const steps = [
    ['Consult', 'Design Consultation'],
    ['Stencil', 'Stencil Creation'],
    ['Schedule', 'Installation Scheduling'],
    ['Install', 'On-Site Installation'],
    ['Photos', 'Photo Documentation'],
  ] as const;
  for (const [index, [label, name]] of steps.entries()) {
    const step = index + 1;
    await card.getByRole('button', { name: new RegExp(`^${label}`) }).click();
    const dialog = page.getByRole('dialog', { name: `Step ${step}: ${name}` });
    await expect(dialog.getByLabel('Progress notes (optional)')).toHaveValue(`Updated to step ${step}: ${name}`);
    if (step === 2) await dialog.getByLabel('Progress notes (optional)').fill('Stencil approved by Rosa');
    // Scheduling offers the preferred day and takes another one (the customer gets a new invite).
    if (step === 3) {
      await expect(dialog.getByLabel('Installation date')).toHaveValue('2027-10-12');
      await dialog.getByLabel('Installation date').fill('2027-10-14');
    }
    // Installing proposes the day set at step 3 (the customer's date), and says it is not today.
    if (step === 4) {
      await expect(dialog.getByLabel('Installation date')).toHaveValue('2027-10-14');
      await expect(dialog.getByTestId('installation-date-note')).toHaveText('Scheduled for Thu 14 October 2027 — not today.');
      await dialog.getByLabel('Installation date').fill('2027-10-15');
      await expect(dialog.getByTestId('installation-date-note')).toContainText('Moves the installation from Thu 14 October 2027 to Fri 15 October 2027.');
      await dialog.getByLabel('Installation date').fill('2027-10-14');
    }
    await dialog.getByRole('button', { name: step === 5 ? 'Complete Project' : 'Update Progress' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByTestId('toast')).toContainText(`Booking #${id} is at step ${step}: ${name}.`);
    await expect(card).toContainText(`Step ${step} of 5`);
    if (step === 3 || step === 4) await expect(card).toContainText(/Installation:\s*14 October 2027/);
  }
  await expect(card.getByRole('progressbar')).toHaveAttribute('aria-valuetext', 'Step 5 of 5: Completed');
  await expect(card.getByRole('list', { name: /Progress history/ })).toContainText('Stencil approved by Rosa');

  // A note: the add button stays disabled until the note has words in it.
  await card.getByRole('button', { name: 'Add Note to Current Step' }).click();
  const noteDialog = page.getByRole('dialog', { name: 'Add Note to Current Step' });
  const addNote = noteDialog.getByRole('button', { name: 'Add Note' });
  await expect(addNote).toBeDisabled();
  await noteDialog.getByLabel('Note').fill('   ');
  await expect(addNote).toBeDisabled();
  await noteDialog.getByLabel('Note').fill('Crew photographed all ten patches');
  await addNote.click();
  await expect(noteDialog).toBeHidden();
  const history = card.getByRole('list', { name: /Progress history/ });
  await expect(history.getByTestId('progress-log').first()).toContainText('Crew photographed all ten patches');
  await expect(card).toContainText('Latest note');
  await expect(card).toContainText('Crew photographed all ten patches');

  // A photo: the type is required, then it uploads (scaled in the browser) and shows in the grid.
  await card.getByText('Upload a photo').click();
  await card.getByLabel('Photo', { exact: true }).setInputFiles(LOGO);
  await card.getByRole('button', { name: 'Upload Photo' }).click();
  await expect(page.getByTestId('toast')).toContainText('Missing Information');
  await expect(page.getByTestId('toast')).toContainText('Please select a file and photo type.');
  await card.getByLabel('Photo type').selectOption('after');
  await expect(card.getByLabel('Step', { exact: true })).toHaveValue('5');
  await card.getByLabel('Description (optional)').fill('Shop front, morning light');
  await card.getByRole('button', { name: 'Upload Photo' }).click();
  await expect(page.getByTestId('toast')).toContainText('Photo Uploaded');
  await expect(card.getByRole('heading', { name: 'Photos (1)' })).toBeVisible();
  await expect(card.getByRole('img', { name: 'Shop front, morning light' })).toHaveAttribute('src', /^\/uploads\/photo-[0-9a-f-]+-thumb\.jpg$/);

  // Hidden from the customer: the photo stays on the card, marked, and the history says so.
  await expect(card).toContainText('Hide takes a photo off everything the customer sees');
  const tile = card.getByTestId('project-photo');
  await expect(tile.getByTestId('photo-hidden')).toHaveCount(0);
  await tile.getByRole('button', { name: /^Hide after photo .+ from the customer$/ }).click();
  await expect(page.getByTestId('toast')).toContainText('Photo Hidden');
  await expect(tile.getByTestId('photo-hidden')).toHaveText('Hidden from customer');
  await tile.screenshot({ path: test.info().outputPath('hidden-photo-375.png') });
  await expect(card.getByRole('heading', { name: 'Photos (1)' })).toBeVisible();
  await expect(history.getByTestId('progress-log').first()).toContainText(
    'Photo hidden from the customer: after photo, step 5 (Shop front, morning light)',
  );
  const serious = async (builder: AxeBuilder) =>
    (await builder.analyze()).violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(await serious(new AxeBuilder({ page }).include('[data-testid="project"]'))).toEqual([]);
  // And shown again.
  await tile.getByRole('button', { name: /^Show after photo .+ to the customer$/ }).click();
  await expect(page.getByTestId('toast')).toContainText('Photo Shown');
  await expect(tile.getByTestId('photo-hidden')).toHaveCount(0);
  await expect(history.getByTestId('progress-log').first()).toContainText('Photo shown to the customer again');

  // A log entry deleted, after confirming.
  const logCount = await history.getByTestId('progress-log').count();
  page.once('dialog', (dialog) => void dialog.accept());
  await history.getByRole('button', { name: 'Delete progress entry: step 5, Crew photographed all ten patches' }).click();
  await expect(page.getByTestId('toast')).toContainText('Log Deleted');
  await expect(history.getByTestId('progress-log')).toHaveCount(logCount - 1);
  await expect(history).not.toContainText('Crew photographed all ten patches');
});

test('the Projects tab and its dialogs have no serious accessibility problems', async ({ page }) => {
  // Two axe passes over a tab holding every seeded project take a while on a shared 2-core machine.
  test.slow();
  await signInAsStaff(page);
  await expect(page.getByTestId('project-row').first()).toBeVisible();
  await page.getByTestId('project-row').first().getByRole('button', { expanded: false }).click();
  await expect(page.getByTestId('project').first()).toBeVisible();
  await expect(page.getByText('Completed projects are archived automatically 30 days after completion.')).toBeVisible();
  const serious = async (builder: AxeBuilder) =>
    (await builder.analyze()).violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(await serious(new AxeBuilder({ page }))).toEqual([]);

  await page.getByTestId('project').first().getByRole('button', { name: 'Add Note to Current Step' }).click();
  await expect(page.getByRole('dialog', { name: 'Add Note to Current Step' })).toBeVisible();
  expect(await serious(new AxeBuilder({ page }).include('dialog[open]'))).toEqual([]);
});

import { expect, test, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { ADMIN_PASSWORD } from '../fixtures/e2e-server.ts';
import { bookingPayload, setupBookingHeaders } from '../fixtures/bookings.ts';
import { signInAsStaff } from '../fixtures/staff-setup.ts';

/** The link in the newest invitation to `email`, read from the outbox as the owner may (Messages API). */
async function invitationLink(owner: Page, email: string): Promise<string> {
  let url = '';
  await expect(async () => {
    const list = (await (await owner.request.get('/api/admin/messages?kind=staff-invitation')).json()) as { id: number; to: string }[];
    const message = list.find((row) => row.to === email);
    expect(message).toBeDefined();
    const { text } = (await (await owner.request.get(`/api/admin/messages/${message!.id}`)).json()) as { text: string };
    url = text.match(/https?:\/\/\S+\/admin\/accept\?t=[\w-]+/)![0];
  }).toPass();
  return url;
}

test.describe('staff accounts', () => {
  test('the owner invites staff, who set a password and a passkey, sign in with it, and are named in the Logs', async ({ page, browser, baseURL }, testInfo) => {
    test.setTimeout(120_000);
    const email = `sam.${testInfo.workerIndex}.${Date.now()}@team.example`;
    const name = 'Sam Staffer';

    // A booking of this test's own, for the staff member to confirm.
    const headers = setupBookingHeaders(baseURL!);
    const created = await page.request.post('/api/bookings', { headers, data: bookingPayload({ firstName: 'Ines', lastName: 'Invited' }) });
    expect(created.status()).toBe(201);
    const { id: bookingId } = (await created.json()) as { id: number };

    // The owner (the bootstrap account) invites from the Team tab.
    await signInAsStaff(page, 'Team');
    await expect(page.getByTestId('signed-in-as')).toContainText('Owner');
    await page.getByLabel('Name', { exact: true }).fill(name);
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Role', { exact: true }).selectOption('staff');
    await page.getByRole('button', { name: 'Send invitation' }).click();
    await expect(page.getByTestId('team-member').filter({ hasText: email })).toContainText('Invited');
    const link = await invitationLink(page, email);

    // The invitee, on a phone of their own with a platform authenticator (Chromium's virtual one).
    const phone = await browser.newContext({ ...testInfo.project.use, baseURL });
    const staff = await phone.newPage();
    const cdp = await phone.newCDPSession(staff);
    await cdp.send('WebAuthn.enable');
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
    });
    await staff.goto(link);
    await expect(staff.getByRole('heading', { name: `Welcome, ${name}` })).toBeVisible();
    await expect(staff).toHaveURL(/\/admin\/accept$/);
    await staff.getByLabel('New password').fill('password1234');
    await staff.getByRole('button', { name: 'Set password' }).click();
    await expect(staff.getByText('This password is one of the most common ones')).toBeVisible();
    await staff.getByLabel('New password').fill('copper kettle morning tide');
    await staff.getByRole('button', { name: 'Set password' }).click();
    await expect(staff.getByRole('heading', { name: `You’re in, ${name}` })).toBeVisible({ timeout: 20_000 });
    await staff.getByRole('button', { name: 'Add a passkey' }).click();
    await expect(staff.getByText('Passkey added: next time, sign in with one tap.')).toBeVisible();
    await staff.getByRole('link', { name: 'Open the dashboard' }).click();
    await expect(staff.getByTestId('signed-in-as')).toContainText(name);
    await expect(staff.getByTestId('signed-in-as')).toContainText('Staff');
    await expect(staff.getByRole('tab', { name: 'Team' })).toHaveCount(0);

    // Sign out, then back in with one tap.
    await staff.getByRole('button', { name: 'Logout' }).click();
    await staff.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await expect(staff.getByTestId('signed-in-as')).toContainText(name);

    // The change, made as this person.
    await staff.getByRole('tab', { name: 'Bookings' }).click();
    await staff.getByLabel('Search bookings').fill('Ines Invited');
    const status = staff.getByLabel(`Status of booking #${bookingId} (Ines Invited)`);
    await status.selectOption('confirmed');
    await expect(staff.getByTestId('toast')).toBeVisible();
    await phone.close();

    // The owner sees the name on the change.
    await page.getByRole('tab', { name: 'Logs' }).click();
    await page.getByLabel('Search', { exact: true }).fill(`Booking #${bookingId} status changed`);
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await expect(page.getByText(`Booking #${bookingId} status changed from pending to confirmed`)).toBeVisible();
    await expect(page.getByText(`by ${name}`).first()).toBeVisible();
  });
});

test('removing a passkey from My account asks for the password again', async ({ page }, testInfo) => {
  test.setTimeout(60_000);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  });
  const keyName = `Office laptop ${testInfo.workerIndex}-${Date.now()}`;
  await signInAsStaff(page, 'My account');
  const panel = page.getByRole('tabpanel', { name: 'My account' });
  await panel.getByLabel('Passkey name').fill(keyName);
  await panel.getByRole('button', { name: 'Add a passkey' }).click();
  await expect(page.getByTestId('toast')).toContainText('Passkey added');
  const row = panel.getByTestId('passkey-list').getByRole('listitem').filter({ hasText: keyName });

  // A session alone does not take it away: the password is asked for, in place.
  await row.getByRole('button', { name: `Remove passkey ${keyName}` }).click();
  const proof = row.getByLabel('Your password, or a current code from your authenticator app');
  await expect(proof).toBeFocused();
  await proof.fill('not the password at all');
  await row.getByRole('button', { name: 'Remove passkey', exact: true }).click();
  await expect(row.getByText('Enter your password, or the current 6-digit code from your authenticator app, to remove a passkey.')).toBeVisible();
  await expect(proof).toHaveAttribute('aria-invalid', 'true');
  const scan = await new AxeBuilder({ page }).include('[role="tabpanel"]').analyze();
  expect(scan.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);

  await proof.fill(ADMIN_PASSWORD);
  await row.getByRole('button', { name: 'Remove passkey', exact: true }).click();
  await expect(page.getByTestId('toast')).toContainText('Passkey removed');
  await expect(row).toHaveCount(0);
});

test('a viewer reads every tab without the controls that would change something', async ({ page, browser, baseURL }, testInfo) => {
  test.setTimeout(120_000);
  const email = `vera.${testInfo.workerIndex}.${Date.now()}@team.example`;
  await signInAsStaff(page);
  const origin = { Origin: baseURL! };
  expect((await page.request.post('/api/admin/users', { headers: origin, data: { name: 'Vera Viewer', email, role: 'viewer' } })).status()).toBe(201);
  const token = new URL(await invitationLink(page, email)).searchParams.get('t');

  const context = await browser.newContext({ ...testInfo.project.use, baseURL });
  const viewer = await context.newPage();
  expect((await viewer.request.post('/api/admin/invitations/accept', { headers: origin, data: { token, password: 'quiet harbour lamp 88' } })).status()).toBe(204);
  await viewer.goto('/admin');
  await expect(viewer.getByTestId('signed-in-as')).toContainText('Viewer');
  await expect(viewer.getByRole('tab')).toHaveText(['Projects', 'Bookings', 'Schedule', 'Contacts', 'Locations', 'Workers', 'Reviews', 'Messages', 'Logs', 'Analytics', 'My account']);

  await viewer.getByRole('tab', { name: 'Bookings' }).click();
  await expect(viewer.getByLabel(/^Status of booking/).first()).toBeDisabled();
  await expect(viewer.getByRole('button', { name: /^Archive booking/ })).toHaveCount(0);
  await expect(viewer.getByRole('button', { name: 'Block date' })).toHaveCount(0);
  await viewer.getByRole('tab', { name: 'Projects' }).click();
  await viewer.getByTestId('project-row').first().getByRole('button').first().click();
  await expect(viewer.getByTestId('project').first()).toBeVisible();
  await expect(viewer.getByRole('button', { name: 'Add Note to Current Step' })).toHaveCount(0);
  await expect(viewer.getByRole('button', { name: /^Delete progress entry/ })).toHaveCount(0);
  await viewer.getByRole('tab', { name: 'Contacts' }).click();
  await expect(viewer.getByTestId('contact-item').first()).toBeVisible();
  await expect(viewer.getByRole('button', { name: 'Erase data' })).toHaveCount(0);
  await viewer.getByRole('tab', { name: 'Workers' }).click();
  await expect(viewer.getByRole('heading', { name: 'Workers' }).first()).toBeVisible();
  await expect(viewer.getByRole('button', { name: 'Add worker' })).toHaveCount(0);
  await expect(viewer.getByRole('button', { name: /Send/ })).toHaveCount(0);
  await viewer.getByRole('tab', { name: 'Reviews' }).click();
  await expect(viewer.getByRole('button', { name: /Hide review|Send Completion Email|Request Review/ })).toHaveCount(0);
  await context.close();
});

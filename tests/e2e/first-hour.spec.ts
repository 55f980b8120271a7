import { expect, test, type Browser, type Page, type TestInfo } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { signInAsStaff, openProject, bookingAtStep } from '../fixtures/staff-setup.ts';
import { ADMIN_PASSWORD } from '../fixtures/e2e-server.ts';
import { adminTotp } from '../../src/server/services/staff/admin-totp.ts';

// A real first hour with the dashboard on a phone: the code as its own step, a name, a note kept
// through an ended session, and the Projects list within the first screen.


const PASSWORD = 'copper kettle morning tide';

async function shotAt(page: Page, name: string, widths: number[] = [375, 1280]) {
  const original = page.viewportSize()!;
  for (const width of widths) {
    await page.setViewportSize({ width, height: width < 640 ? 740 : 800 });
    await page.screenshot({ path: test.info().outputPath(`${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize(original);
}

async function expectAxeClean(page: Page) {
  const { violations } = await new AxeBuilder({ page }).analyze();
  expect(violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')).toEqual([]);
}

/** A staff person with a password, signed in on a context of their own (the invitation, as e-mailed). */
async function invitedPerson(owner: Page, browser: Browser, testInfo: TestInfo, baseURL: string, name: string) {
  const email = `${name.toLowerCase().replace(/\W+/g, '.')}.${testInfo.workerIndex}.${Date.now()}@team.example`;
  const origin = { Origin: baseURL };
  const invited = await owner.request.post('/api/admin/users', { headers: origin, data: { name, email, role: 'staff' } });
  expect(invited.status()).toBe(201);
  const { id } = (await invited.json()) as { id: number };
  let token = '';
  await expect(async () => {
    const list = (await (await owner.request.get('/api/admin/messages?kind=staff-invitation')).json()) as { id: number; to: string }[];
    const message = list.find((row) => row.to === email)!;
    const { text } = (await (await owner.request.get(`/api/admin/messages/${message.id}`)).json()) as { text: string };
    token = /\/admin\/accept\?t=([\w-]+)/.exec(text)![1]!;
  }).toPass();
  const context = await browser.newContext({ ...testInfo.project.use, baseURL });
  const accepted = await context.request.post('/api/admin/invitations/accept', { headers: origin, data: { token, password: PASSWORD } });
  expect(accepted.status()).toBe(204);
  return { id, email, context };
}

test.describe.configure({ timeout: 150_000 });

test('the Projects list starts within the first screen, in one row of tabs, with rows of about 100 px', { tag: '@layout' }, async ({ page }) => {
  await signInAsStaff(page);
  const panel = page.getByRole('tabpanel', { name: 'Projects' });
  const rows = panel.getByTestId('project-row');
  await expect(rows.nth(2)).toBeVisible();
  const viewport = page.viewportSize()!;
  await page.screenshot({ path: test.info().outputPath(`projects-${viewport.width}.png`) });
  // The list starts on the first screen, its first project's first line showing, whatever the
  // demo data above it (the one-time name prompt, a test booking to archive).
  const first = (await rows.first().boundingBox())!;
  expect(first.y + 24, 'the first project starts on the first screen').toBeLessThanOrEqual(viewport.height);
  // docs/STAFF-GUIDE.md: "a row is two lines (at most about 100 px)" on a phone; a project a crew has worked on
  // adds a line for the crew's state there. 80 px from 640 px, where the cells are columns.
  for (const row of (await rows.all()).slice(0, 10)) {
    const crew = row.getByText('Crew:');
    // The crew's cell (its label and state, and the 2 px between lines) is the only extra.
    const crewLines = viewport.width < 640 && (await crew.isVisible()) ? (await crew.locator('xpath=..').boundingBox())!.height + 2 : 0;
    expect((await row.boundingBox())!.height - crewLines).toBeLessThanOrEqual(viewport.width < 640 ? 100 : 80);
  }
  if (viewport.width >= 1280) {
    // On a laptop the whole first project shows, under one row of Quick Actions.
    expect(first.y + first.height, 'the first project shows whole on the first screen').toBeLessThanOrEqual(viewport.height);
    const actions = page.getByRole('region', { name: 'Quick Actions' }).locator('a:visible, button:visible');
    const actionTops = await actions.evaluateAll((elements) => elements.map((element) => Math.round(element.getBoundingClientRect().top)));
    expect(actionTops.length).toBeGreaterThanOrEqual(4);
    expect(new Set(actionTops).size, 'Quick Actions take one row').toBe(1);
    // The raw data views wait under More; Escape closes it and gives the focus back.
    const more = page.getByRole('button', { name: 'More actions' });
    await more.click();
    await expect(page.getByRole('link', { name: /^View bookings data/ })).toBeVisible();
    await expect(page.getByRole('link', { name: /^View contacts data/ })).toBeVisible();
    await page.screenshot({ path: test.info().outputPath(`quick-actions-more-${viewport.width}.png`) });
    await page.keyboard.press('Escape');
    await expect(page.getByRole('link', { name: /^View bookings data/ })).toBeHidden();
    await expect(more).toBeFocused();
    await expect(more).toHaveAttribute('aria-expanded', 'false');
  }
  // Every tab on one line, however many there are.
  const tabs = page.getByRole('tab');
  const tops = await tabs.evaluateAll((elements) => elements.map((element) => element.getBoundingClientRect().top));
  expect(new Set(tops).size, 'the tabs take one row').toBe(1);
  // Every tab in reach: on a laptop each shows whole, with nothing to scroll; on a phone the strip
  // scrolls, and an arrow at the cut edge says more tabs follow until the last one shows.
  const strip = page.getByRole('tablist', { name: 'Dashboard sections' });
  const after = page.getByTestId('tabs-more-after');
  const before = page.getByTestId('tabs-more-before');
  /** The tabs the strip's edges cut (or hide), by name. */
  const cutTabs = () =>
    strip.evaluate((list) => {
      const box = list.getBoundingClientRect();
      return [...list.querySelectorAll('[role="tab"]')]
        .filter((tab) => tab.getBoundingClientRect().left < box.left - 0.5 || tab.getBoundingClientRect().right > box.right + 0.5)
        .map((tab) => tab.textContent);
    });
  if (viewport.width >= 1280) {
    expect(await cutTabs(), 'no tab is cut').toEqual([]);
    await expect(after).toHaveCount(0);
    await expect(before).toHaveCount(0);
  } else {
    await expect(after).toBeVisible();
    await expect(before).toHaveCount(0);
    await after.click();
    await expect(before).toBeVisible();
  }
  await page.getByRole('tab', { name: 'Projects' }).focus();
  await page.keyboard.press('End');
  await expect(page.getByRole('tab', { name: 'My account' })).toBeFocused();
  await expect(page.getByRole('tab', { name: 'My account' })).toBeInViewport();
  await expect(after).toHaveCount(0);
  await expect.poll(cutTabs).not.toContain('My account');
  await page.keyboard.press('Home');
  await expect(page.getByRole('tab', { name: 'Projects' })).toHaveAttribute('aria-selected', 'true');
  await expect(rows.first()).toBeVisible();
  await expectAxeClean(page);
});

test('a signed-out visit to /admin logs no failed request in the console', async ({ page }) => {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  await page.goto('/admin');
  await expect(page.getByLabel('Password')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Unlock Dashboard' })).toBeVisible();
  expect(errors).toEqual([]);
});

test('with an authenticator, the code is the next step, a used code says to wait, and My account sets the name', async ({ page, browser, baseURL }, testInfo) => {
  await signInAsStaff(page);
  const person = await invitedPerson(page, browser, testInfo, baseURL!, 'Tara Totp');
  const origin = { Origin: baseURL! };
  const { secret } = (await (await person.context.request.post('/api/admin/me/totp/setup', { headers: origin })).json()) as { secret: string };
  const used = adminTotp(secret).generate({ timestamp: Date.now() });
  expect((await person.context.request.post('/api/admin/me/totp/confirm', { headers: origin, data: { code: used } })).status()).toBe(204);

  const phone = await person.context.newPage();
  await phone.context().clearCookies();
  await phone.goto('/admin');
  await phone.getByLabel('E-mail').fill(person.email);
  await phone.getByLabel('Password').fill(PASSWORD);
  await phone.getByRole('button', { name: 'Unlock Dashboard' }).click();
  // The right password leads to the code, with nothing in red and no toast over the button.
  const step = phone.getByTestId('signin-code-step');
  await expect(step).toContainText('Password accepted');
  await expect(phone.getByLabel('Authenticator code')).toBeFocused();
  await expect(phone.getByTestId('toast')).toHaveCount(0);
  await expect(phone.getByRole('alert').filter({ hasText: /./ })).toHaveCount(0);
  await shotAt(phone, 'signin-code');
  await expectAxeClean(phone);

  await phone.getByLabel('Authenticator code').fill(used);
  await phone.getByRole('button', { name: 'Sign in' }).click();
  await expect(step.getByRole('alert')).toHaveText('That code was already used. Wait for the next code in your authenticator app, then enter it.');
  await shotAt(phone, 'signin-code-used');
  // The next step's code (one step of clock drift is accepted, so no waiting here).
  await phone.getByLabel('Authenticator code').fill(adminTotp(secret).generate({ timestamp: Date.now() + 30_000 }));
  await phone.getByRole('button', { name: 'Sign in' }).click();
  await expect(phone.getByTestId('signed-in-as')).toContainText('Tara Totp');
  // An invited person's name was chosen by the owner: nobody asks again.
  await expect(phone.getByTestId('name-prompt')).toHaveCount(0);

  await phone.getByRole('tab', { name: 'My account' }).click();
  const account = phone.getByRole('tabpanel', { name: 'My account' });
  await account.getByLabel('Your name').fill('Tara Okoye');
  await account.getByRole('button', { name: 'Save name' }).click();
  await expect(phone.getByTestId('signed-in-as')).toContainText('Tara Okoye');
  await expect(account.getByRole('heading', { name: 'Tara Okoye' })).toBeVisible();

  // Two sessions on the same kind of phone (the invitation's and this sign-in's): every End
  // button says which one it ends.
  await phone.reload();
  await phone.getByRole('tab', { name: 'My account' }).click();
  const ends = account.getByRole('button', { name: /^End session/ });
  await expect(ends).toHaveCount(2);
  const names = await ends.evaluateAll((buttons) => buttons.map((button) => button.getAttribute('aria-label')));
  expect(new Set(names).size).toBe(2);
  await shotAt(phone, 'my-account');
  await expectAxeClean(phone);

  // Deactivated: told plainly once the password and code are right.
  expect((await page.request.patch(`/api/admin/users/${person.id}`, { headers: origin, data: { status: 'deactivated' } })).status()).toBe(200);
  await phone.reload();
  await phone.getByLabel('E-mail').fill(person.email);
  await phone.getByLabel('Password').fill(PASSWORD);
  await phone.getByRole('button', { name: 'Unlock Dashboard' }).click();
  // A deactivated account claims no code, so the current one (used or not) does.
  await phone.getByLabel('Authenticator code').fill(adminTotp(secret).generate({ timestamp: Date.now() }));
  await phone.getByRole('button', { name: 'Sign in' }).click();
  await expect(phone.getByRole('alert').filter({ hasText: 'deactivated' })).toHaveText(
    'This account has been deactivated. Ask an owner of the business to reactivate it.',
  );
  await person.context.close();
});

test('a note typed into a session that ended is kept: sign in again in place, and it is saved', async ({ page, context, baseURL }) => {
  const name = 'Nora Notekeeper';
  const { id } = await bookingAtStep(page, baseURL!, { firstName: 'Nora', lastName: 'Notekeeper' }, 1);
  // bookingAtStep signed the page in through the API.
  await page.goto('/admin');
  await expect(page.getByRole('tab', { name: 'Projects' })).toHaveAttribute('aria-selected', 'true', { timeout: 30_000 });
  const card = await openProject(page, id, name);
  await card.getByRole('button', { name: 'Add Note to Current Step' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Note to Current Step' });
  const note = 'Customer asked for the logo 10 cm further from the kerb.';
  await dialog.getByRole('textbox').fill(note);
  // The session ends while the note is being typed (lunch): the browser has no cookie any more.
  await context.clearCookies();
  await dialog.getByRole('button', { name: 'Add Note' }).click();
  const expired = page.getByRole('dialog', { name: 'Session expired' });
  await expect(expired).toBeVisible();
  await expect(page.getByTestId('toast').filter({ hasText: 'Update Failed' })).toHaveCount(0);
  await expired.getByLabel('Password').fill(ADMIN_PASSWORD);
  await expired.getByRole('button', { name: 'Unlock Dashboard' }).click();
  await expect(expired).toHaveCount(0, { timeout: 30_000 });
  await expect(card.getByRole('list', { name: /^Progress history/ }).getByText(note)).toBeVisible();
});

test('a Logout while a tab is loading raises no error on the page', async ({ page }) => {
  await signInAsStaff(page);
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/admin/contacts**', async (route) => {
    await held;
    await route.continue();
  });
  await page.route('**/api/contacts**', async (route) => {
    await held;
    await route.continue();
  });
  await page.getByRole('tab', { name: 'Contacts' }).click();
  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page.getByLabel('Password')).toBeVisible();
  release();
  // The held answers arrive (401 after the logout) to a dashboard that is gone.
  await page.waitForLoadState('networkidle');
  expect(errors).toEqual([]);
});

import { expect, test, type Locator, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { signInAsStaff } from '../fixtures/staff-setup.ts';

// Staff answer customers between sites: every tab must work on a 375 px phone without the page
// scrolling sideways, with each tab's main controls on screen, and pass axe at both widths. Only
// reads here: the seeded rows are shared with the specs that change them.

type PrimaryActions = (panel: Locator) => Locator[];

const TABS: [string, PrimaryActions][] = [
  ['Projects', (panel) => [panel.getByLabel('Search projects'), panel.getByTestId('project-row').first().getByRole('button')]],
  [
    'Bookings',
    (panel) => [
      panel.getByLabel('Search bookings'),
      panel.getByLabel(/^Status of booking/).first(),
      panel.getByRole('button', { name: /^Archive booking/ }).first(),
    ],
  ],
  ['Contacts', (panel) => [panel.getByTestId('contact-item').first().getByRole('link').first(), panel.getByRole('button', { name: 'Erase data' })]],
  ['Locations', (panel) => [panel.getByRole('tab', { name: 'By Region' }), panel.getByRole('tab', { name: 'Route Groups' })]],
  ['Workers', (panel) => [panel.getByRole('button', { name: 'Add worker' })]],
  ['Reviews', (panel) => [panel.getByRole('link', { name: /Project page/ }).first()]],
  ['Messages', (panel) => [panel.getByLabel('Recipient'), panel.getByRole('button', { name: 'Show messages' })]],
  ['Logs', (panel) => [panel.locator('#logs-channel'), panel.getByTestId('log-row').first()]],
  ['Analytics', (panel) => [panel.getByRole('heading', { name: 'Analytics' })]],
  ['Team', (panel) => [panel.getByRole('button', { name: 'Send invitation' }), panel.getByTestId('team-member').first().getByLabel(/^Role/)]],
  ['My account', (panel) => [panel.getByRole('button', { name: 'Add a passkey' }), panel.getByRole('button', { name: 'Sign out everywhere' })]],
];

/** Whether the page itself scrolls sideways (a table in its own scroller does not count). */
const pageOverflow = (page: Page) =>
  page.evaluate(() => ({ scrollWidth: document.scrollingElement!.scrollWidth, innerWidth: window.innerWidth }));

async function expectOnScreen(page: Page, control: Locator) {
  await expect(control).toBeVisible();
  await control.scrollIntoViewIfNeeded();
  const box = (await control.boundingBox())!;
  const width = page.viewportSize()!.width;
  expect(box.x, 'starts on screen').toBeGreaterThanOrEqual(0);
  expect(box.x + box.width, 'ends on screen').toBeLessThanOrEqual(width + 0.5);
}

// Signing in and axe on a busy shared machine take longer than the default budget.
test.describe.configure({ timeout: 150_000 });

test('the dashboard uses its own staff frame, without the public header’s sales buttons', { tag: '@layout' }, async ({ page }) => {
  await signInAsStaff(page);
  await expect(page.getByRole('link', { name: /Book Special/ })).toHaveCount(0);
  await expect(page.getByRole('navigation', { name: 'Main' })).toHaveCount(0);
  await expect(page.getByRole('banner')).toContainText('Staff');
  // Every tab comes on screen in the one scrolling row: none is out of reach on a phone.
  for (const tab of await page.getByRole('tab').all()) await expectOnScreen(page, tab);
});

for (const [name, primaryActions] of TABS) {
  test(`the ${name} tab fits the screen, keeps its actions in reach and has no serious accessibility problems`, { tag: '@layout' }, async ({ page }) => {
    await signInAsStaff(page);
    await page.getByRole('tab', { name }).click();
    const panel = page.getByRole('tabpanel', { name });
    for (const control of primaryActions(panel)) await expectOnScreen(page, control);

    const { scrollWidth, innerWidth } = await pageOverflow(page);
    expect(scrollWidth, 'the page does not scroll sideways').toBeLessThanOrEqual(innerWidth);

    const { violations } = await new AxeBuilder({ page }).analyze();
    expect(violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')).toEqual([]);
  });
}

test('@mobile inputs are at least 16 px, so focusing one does not zoom the phone', async ({ page }) => {
  test.setTimeout(150_000);
  await signInAsStaff(page);
  for (const [name] of TABS) {
    await page.getByRole('tab', { name }).click();
    const panel = page.getByRole('tabpanel', { name });
    await expect(panel.getByText(/^Loading/)).toHaveCount(0);
    const small = await panel.locator('input:not([type=hidden]), select, textarea').evaluateAll((controls) =>
      controls
        .filter((control) => control.getClientRects().length > 0 && Number.parseFloat(getComputedStyle(control).fontSize) < 16)
        .map((control) => control.id || control.outerHTML.slice(0, 80)),
    );
    expect(small, `${name}: controls under 16 px`).toEqual([]);
  }
});

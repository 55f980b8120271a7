// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { useTestRoot } from '../../../tests/setup/react-root.ts';
import type { CrewStop } from './crew-api.ts';
import type { QueuedItem } from './crew-queue.ts';
import { StopCard, type StopActions } from './StopCard.tsx';

// What a stop says while the crew's taps wait on the phone (no signal): nothing claims to have
// happened before the server has answered.

const STOP: CrewStop = {
  bookingId: 7,
  order: 2,
  routeNumber: 1,
  addresses: ['Deansgate, Manchester M3 2BW'],
  lat: 53.48,
  lng: -2.25,
  workType: 'day',
  hours: 'Day work, 9am - 5pm',
  quantity: 5,
  customerFirstName: 'Ellie',
  unpaid: false,
  status: 'planned',
  statusAt: null,
  statusReceivedAt: null,
  navigationUrl: null,
  specialInstructions: null,
  stencil: null,
  onTheWay: null,
  photos: [],
};

const actions: StopActions = { onTheWay: async () => {}, done: async () => {}, undoDone: async () => {}, photo: async () => {}, notify: () => {} };
const queued = (action: QueuedItem['action'], extra: Partial<QueuedItem> = {}): QueuedItem => ({
  id: `${action}-${extra.photoType ?? ''}`,
  token: 't',
  bookingId: 7,
  action,
  createdAt: Date.parse('2026-11-23T17:07:22Z'),
  attempts: 1,
  ...extra,
});

describe('a stop with taps waiting for signal', () => {
  const root = useTestRoot();
  const render = (stop: CrewStop, pending: QueuedItem[]) => root.render(<StopCard stop={stop} pending={pending} actions={actions} office={{ phone: '0161 496 0123', phoneHref: 'tel:+441614960123' }} />);
  const text = () => root.container.textContent ?? '';

  it('says the customer will be told, not that they were', () => {
    render(STOP, [queued('on-the-way')]);
    expect(text()).toContain('Will tell the customer when you have signal');
    expect(text()).not.toContain('Customer told');
    expect(text()).toContain('On the way · waiting to send');
  });

  it('counts photos that wait: "1 photo waiting"', () => {
    render(STOP, [queued('photo', { photoType: 'after' })]);
    expect(root.container.querySelector('label[for$="-after"]')?.textContent).toBe('After1 photo waiting');
  });

  it('says Done waits to be sent', () => {
    render(STOP, [queued('photo', { photoType: 'after' }), queued('done')]);
    expect(text()).toContain('Done · waiting to send');
    expect(text()).toContain('Will tell the office it is done when you have signal.');
  });

  it('once the server has it, shows the time tapped and, when later, the time received', () => {
    const told = { at: '2026-11-23T17:07:22Z', customerTold: true };
    render({ ...STOP, status: 'on_the_way', statusAt: '2026-11-23T17:07:22Z', statusReceivedAt: '2026-11-23T17:19:00Z', onTheWay: told }, []);
    expect(root.container.querySelector('[data-testid="crew-status"]')?.textContent).toBe('On the way · 17:07 (received 17:19)');
    expect(root.container.querySelector('[data-testid="on-my-way-note"]')?.textContent).toBe('Customer told · 17:07');
    render({ ...STOP, status: 'on_the_way', statusAt: '2026-11-23T17:07:22Z', statusReceivedAt: '2026-11-23T17:07:29Z' }, []);
    expect(root.container.querySelector('[data-testid="crew-status"]')?.textContent).toBe('On the way · 17:07');
  });
});

describe('On my way says what happened to the customer', () => {
  const root = useTestRoot();
  const render = (stop: CrewStop) => root.render(<StopCard stop={stop} pending={[]} actions={actions} office={{ phone: '0161 496 0123', phoneHref: 'tel:+441614960123' }} />);
  const button = () => [...root.container.querySelectorAll('button')].find((element) => element.textContent?.startsWith('On my way'));

  it('after a photo taken first, the customer is not told and the button still tells them', () => {
    render({ ...STOP, status: 'started', statusAt: '2026-11-23T08:58:00Z', photos: [{ id: 1, photoType: 'before', takenAt: '2026-11-23T08:58:00Z' }] });
    expect(root.container.textContent).not.toContain('Customer told');
    expect(button()?.disabled).toBe(false);
    expect(button()?.textContent).toBe('On my way (the customer has not been told)');
  });

  it('a tap that arrived too late says the customer was not e-mailed', () => {
    render({ ...STOP, status: 'on_the_way', statusAt: '2026-11-23T09:05:00Z', onTheWay: { at: '2026-11-23T09:05:00Z', customerTold: false } });
    expect(root.container.querySelector('[data-testid="on-my-way-note"]')?.textContent).toBe('On my way 09:05 · sent late, customer not e-mailed');
    expect(button()).toBeUndefined();
  });
});


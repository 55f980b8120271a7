import { ComingPanel } from './ComingPanel.tsx';

export default function BookingsTab() {
  return <ComingPanel title="Bookings" text="The bookings table with status, archive and restore are coming to this tab soon." />;
}

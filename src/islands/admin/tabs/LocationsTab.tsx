import { ComingPanel } from './ComingPanel.tsx';

export default function LocationsTab() {
  return <ComingPanel title="Locations" text="Bookings by region and route groups are coming to this tab soon." />;
}

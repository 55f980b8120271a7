import { ComingPanel } from './ComingPanel.tsx';

export default function AnalyticsTab() {
  return <ComingPanel title="Analytics" text="Page views and events are coming to this tab soon." />;
}

import { ComingPanel } from './ComingPanel.tsx';

export default function LogsTab() {
  return <ComingPanel title="Logs" text="Channel activity logs are coming to this tab soon." />;
}

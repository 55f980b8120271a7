import { ComingPanel } from './ComingPanel.tsx';

export default function WorkersTab() {
  return <ComingPanel title="Workers" text="Tomorrow's routes and worker e-mails are coming to this tab soon." />;
}

import { ComingPanel } from './ComingPanel.tsx';

export default function ReviewsTab() {
  return <ComingPanel title="Reviews" text="Completion e-mails and review requests are coming to this tab soon." />;
}

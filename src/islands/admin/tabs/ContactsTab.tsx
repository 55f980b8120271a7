import { ComingPanel } from './ComingPanel.tsx';

export default function ContactsTab() {
  return <ComingPanel title="Contacts" text="Contact enquiries are coming to this tab soon." />;
}

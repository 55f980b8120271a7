import { ComingPanel } from './ComingPanel.tsx';

export default function ProjectsTab() {
  return <ComingPanel title="Projects" text="Project progress, notes and photos are coming to this tab soon." />;
}

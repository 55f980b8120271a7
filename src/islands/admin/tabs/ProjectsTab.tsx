import { useCallback, useEffect, useState } from 'react';
import { adminApi as api } from '../admin-api.ts';
import { showToast } from '../../shared/toast-store.ts';
import { ProjectCard } from '../projects/ProjectCard.tsx';
import type { Project } from '../projects/types.ts';

type Load = { state: 'loading' } | { state: 'failed'; message: string } | { state: 'ready'; projects: Project[] };

/**
 * The Projects tab (admin-dashboard.md §2): every active booking with its progress, notes and
 * photos. The list is fetched again after every change, so what is shown is what was stored.
 */
export default function ProjectsTab() {
  const [load, setLoad] = useState<Load>({ state: 'loading' });
  const [archiving, setArchiving] = useState(false);

  const refresh = useCallback(async () => {
    try {
      setLoad({ state: 'ready', projects: await api<Project[]>('/api/admin/projects') });
    } catch (error) {
      setLoad({ state: 'failed', message: (error as Error).message });
    }
  }, []);

  useEffect(() => {
    void refresh();
  }, [refresh]);

  const projects = load.state === 'ready' ? load.projects : [];
  const testCount = projects.filter((project) => project.isTest).length;

  const archiveTests = async () => {
    // Named one by one, so a real booking the test rule caught can be spotted before it goes.
    const names = projects
      .filter((project) => project.isTest)
      .map((project) => `#${project.id} ${project.firstName} ${project.lastName} <${project.email}>`);
    if (!window.confirm(`Archive ${testCount} test booking(s)? They leave the active lists.\n\n${names.join('\n')}`)) return;
    setArchiving(true);
    try {
      const result = await api<{ archived: number }>('/api/admin/bookings/archive-tests', { method: 'POST' });
      showToast({ title: 'Test Bookings Archived', description: `${result.archived} test booking(s) archived.`, variant: 'success' });
      await refresh();
    } catch (error) {
      showToast({ title: 'Archive Failed', description: (error as Error).message, variant: 'destructive' });
    } finally {
      setArchiving(false);
    }
  };

  return (
    <div>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h2 className="text-2xl">Projects</h2>
          <p className="mt-1 text-sm text-concrete-600">Completed projects are archived automatically 30 days after completion.</p>
        </div>
        {testCount > 0 && (
          <button type="button" className="btn-secondary px-4 py-2 text-sm" disabled={archiving} onClick={() => void archiveTests()}>
            Archive {testCount} Test Booking(s)
          </button>
        )}
      </div>

      {load.state === 'loading' && (
        <p className="mt-6 text-concrete-600" role="status">
          Loading projects…
        </p>
      )}
      {load.state === 'failed' && (
        <div className="mt-6 rounded-xl bg-danger-50 p-4 text-danger-600" role="alert">
          <p className="font-semibold">The projects could not be loaded.</p>
          <p className="text-sm">{load.message}</p>
          <button type="button" className="btn-secondary mt-3 px-4 py-2 text-sm" onClick={() => void refresh()}>
            Try again
          </button>
        </div>
      )}
      {load.state === 'ready' && projects.length === 0 && <p className="mt-6 text-concrete-600">No active projects found...</p>}
      {projects.length > 0 && (
        <div className="mt-6 space-y-5">
          {projects.map((project) => (
            <ProjectCard key={project.id} project={project} onChanged={() => void refresh()} />
          ))}
        </div>
      )}
    </div>
  );
}

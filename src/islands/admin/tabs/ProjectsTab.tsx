import { useCallback, useEffect, useState } from 'react';
import { adminApi as api, adminApiPage as apiPage } from '../admin-api.ts';
import { showToast } from '../../shared/toast-store.ts';
import { errorMessage } from '../../shared/api.ts';
import { INPUT_CLASS, LABEL_CLASS } from '../../shared/FormField.tsx';
import { PROJECT_STEPS } from '../../../domain/project-steps.ts';
import { usePagedList } from '../bookings/use-paged-list.ts';
import { PagedListBody } from '../bookings/PagedListBody.tsx';
import { londonTodayIso } from '../bookings/format.ts';
import { ProjectList } from '../projects/ProjectList.tsx';
import type { ProjectRow } from '../projects/types.ts';
import { PROJECT_SORT_LABELS, PROJECT_SORTS, type ProjectSort } from '../../../domain/project-sorts.ts';

const SEARCH_DELAY_MS = 300;

/**
 * The Projects tab (admin-dashboard.md §2): active bookings as a compact list, by installation
 * day (today, the coming days, then the unscheduled) or newest booking first, filtered by step,
 * installation day and a search (a full postcode too), paged on the server;
 * each row opens its full card (progress, notes, photos). After a change only that project is
 * read again, so the pages already loaded and the open card stay where they are.
 */
export default function ProjectsTab() {
  const [step, setStep] = useState('');
  const [day, setDay] = useState('');
  const [search, setSearch] = useState('');
  const [sort, setSort] = useState<ProjectSort>('day');
  const [query, setQuery] = useState('');
  const [openId, setOpenId] = useState<number | null>(null);
  const [testCount, setTestCount] = useState(0);
  const [archiving, setArchiving] = useState(false);
  const [filtersOpen, setFiltersOpen] = useState(false);

  useEffect(() => {
    const timer = setTimeout(() => setQuery(search.trim()), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [search]);

  const params = new URLSearchParams();
  if (step) params.set('step', step);
  if (day) params.set('date', day);
  if (query) params.set('q', query);
  if (sort !== 'day') params.set('sort', sort);
  const list = usePagedList<ProjectRow>(`/api/admin/projects${params.size ? `?${params}` : ''}`);

  const countTests = useCallback(async () => {
    const page = await apiPage<ProjectRow>('/api/admin/projects?test=true&limit=1').catch(() => null);
    if (page) setTestCount(page.total ?? page.items.length);
  }, []);
  useEffect(() => {
    void countTests();
  }, [countTests]);

  const refreshOne = async (id: number) => {
    try {
      const [fresh] = (await api<ProjectRow[]>(`/api/admin/projects?q=%23${id}&limit=1`)).filter((row) => row.id === id);
      // A project that left the active list (archived meanwhile) leaves the rows too.
      list.replace(id, fresh ?? null);
    } catch (error) {
      showToast({ title: 'Loading Failed', description: errorMessage(error), variant: 'destructive' });
    }
  };

  const archiveTests = async () => {
    // Named one by one, so a real booking the test rule caught can be spotted before it goes.
    let tests: ProjectRow[];
    try {
      tests = (await apiPage<ProjectRow>('/api/admin/projects?test=true&limit=100')).items;
    } catch (error) {
      showToast({ title: 'Loading Failed', description: errorMessage(error), variant: 'destructive' });
      return;
    }
    const names = tests.map((project) => `#${project.id} ${project.firstName} ${project.lastName} <${project.email}>`);
    if (!window.confirm(`Archive ${testCount} test booking(s)? They leave the active lists.\n\n${names.join('\n')}`)) return;
    setArchiving(true);
    try {
      const result = await api<{ archived: number }>('/api/admin/bookings/archive-tests', { method: 'POST' });
      showToast({ title: 'Test Bookings Archived', description: `${result.archived} test booking(s) archived.`, variant: 'success' });
      list.reload();
      await countTests();
    } catch (error) {
      showToast({ title: 'Archive Failed', description: errorMessage(error), variant: 'destructive' });
    } finally {
      setArchiving(false);
    }
  };

  const filtered = Boolean(step || day || query);
  // How many of the folded filters (on a phone) are set, so a folded choice is never a surprise.
  const chosen = [step, day, sort !== 'day' ? sort : ''].filter(Boolean).length;
  const folded = filtersOpen ? undefined : 'max-sm:hidden';
  const today = londonTodayIso();

  return (
    <div>
      {/* The work comes first: the selected tab names the list, and on a phone the filters fold. */}
      <div className="flex flex-wrap items-start justify-between gap-3 has-[h2+*]:mb-3">
        <h2 className="sr-only">Projects</h2>
        {testCount > 0 && (
          <button data-change type="button" className="btn-secondary min-h-11 px-4 py-2 text-sm" disabled={archiving} onClick={() => void archiveTests()}>
            Archive {testCount} Test Booking(s)
          </button>
        )}
      </div>

      <div id="projects-filters" className="grid grid-cols-2 items-end gap-3 sm:grid-cols-[9rem_11rem_11rem_minmax(0,1fr)_auto]">
        <div className={folded}>
          <label htmlFor="projects-step" className={LABEL_CLASS}>
            Step
          </label>
          <select id="projects-step" value={step} onChange={(event) => setStep(event.target.value)} className={`mt-2 ${INPUT_CLASS.replace('px-4', 'px-3')}`}>
            <option value="">All steps</option>
            {PROJECT_STEPS.map((option) => (
              <option key={option.step} value={option.step}>
                {option.step}. {option.buttonLabel}
              </option>
            ))}
          </select>
        </div>
        <div className={folded}>
          <label htmlFor="projects-day" className={LABEL_CLASS}>
            Installation day
          </label>
          <input id="projects-day" type="date" value={day} onChange={(event) => setDay(event.target.value)} className={`mt-2 ${INPUT_CLASS.replace('px-4', 'px-3')}`} />
        </div>
        <div className={folded}>
          <label htmlFor="projects-sort" className={LABEL_CLASS}>
            Order
          </label>
          <select id="projects-sort" value={sort} onChange={(event) => setSort(event.target.value as ProjectSort)} className={`mt-2 ${INPUT_CLASS.replace('px-4', 'px-3')}`}>
            {PROJECT_SORTS.map((option) => (
              <option key={option} value={option}>
                {PROJECT_SORT_LABELS[option]}
              </option>
            ))}
          </select>
        </div>
        <div className="col-span-2 max-sm:order-first sm:col-span-1">
          <label htmlFor="projects-search" className={LABEL_CLASS}>
            Search projects
          </label>
          <input
            id="projects-search"
            type="search"
            placeholder="Name, e-mail, business, postcode or #id"
            value={search}
            onChange={(event) => setSearch(event.target.value)}
            className={`mt-2 ${INPUT_CLASS}`}
          />
        </div>
        <div className="max-sm:hidden">
          <TodayButton day={day} today={today} onChange={setDay} />
        </div>
      </div>
      <div className="mt-2 grid grid-cols-[minmax(0,1fr)_auto] gap-2 sm:hidden">
        <button
          type="button"
          className="btn-secondary min-h-11 px-4 py-2 text-sm"
          aria-expanded={filtersOpen}
          aria-controls="projects-filters"
          onClick={() => setFiltersOpen((open) => !open)}
        >
          Filters{chosen > 0 ? ` (${chosen} set)` : ''} <span aria-hidden="true">{filtersOpen ? '▲' : '▼'}</span>
        </button>
        <TodayButton day={day} today={today} onChange={setDay} />
      </div>
      <div className="mt-2 flex flex-wrap gap-2 empty:hidden">
        {filtered && (
          <button
            type="button"
            className="min-h-11 px-3 text-sm font-semibold text-concrete-700 underline underline-offset-2 hover:text-ink"
            onClick={() => {
              setStep('');
              setDay('');
              setSearch('');
            }}
          >
            Clear filters
          </button>
        )}
      </div>

      <p className="mt-2 text-sm text-concrete-600 sm:mt-4" role="status">
        {list.state === 'ready' && list.total !== null
          ? `${list.total} active ${list.total === 1 ? 'project' : 'projects'}${filtered ? ' matching the filters' : ''}, ${sort === 'day' ? 'by installation day, today first' : 'newest booking first'}`
          : ''}
      </p>

      <div className="mt-2">
        <PagedListBody list={list} noun="projects" empty={filtered ? 'No projects match the filters.' : 'No active projects found...'}>
          {(projects) => (
            <ProjectList
              projects={projects}
              openId={openId}
              onToggle={(id) => setOpenId((current) => (current === id ? null : id))}
              onChanged={(id) => void refreshOne(id)}
            />
          )}
        </PagedListBody>
      </div>
      <p className="mt-4 text-sm text-concrete-600">Completed projects are archived automatically 30 days after completion.</p>
    </div>
  );
}

function TodayButton({ day, today, onChange }: { day: string; today: string; onChange: (day: string) => void }) {
  return (
    <button type="button" className="btn-secondary min-h-11 w-full px-4 py-2 text-sm sm:w-auto" aria-pressed={day === today} onClick={() => onChange(day === today ? '' : today)}>
      Today’s installations
    </button>
  );
}

import { findProjectStep, TOTAL_PROJECT_STEPS } from '../../../domain/project-steps.ts';
import { installationDay } from '../../../domain/schedule.ts';
import { formatDay, formatInstant } from '../bookings/format.ts';
import { ProjectCard } from './ProjectCard.tsx';
import { CREW_STATUS_LABEL, type CrewStopStatus } from '../../../domain/crew.ts';
import { PROOF_STATUS_LABEL, type ProofSummary } from '../../../domain/proofs.ts';
import type { ProjectCrew, ProjectRow } from './types.ts';

interface ProjectListProps {
  projects: ProjectRow[];
  openId: number | null;
  onToggle: (id: number) => void;
  onChanged: (id: number) => void;
}

/** Columns from 640 px up: project, step, day, crew, proof; on a phone each row stacks. */
const GRID = 'sm:grid sm:grid-cols-[minmax(0,2.2fr)_minmax(0,1.3fr)_minmax(0,1fr)_minmax(0,1fr)_minmax(0,1fr)] sm:items-center sm:gap-4';

/**
 * The Projects tab's compact list: one row per project, and the row's full card (progress, notes,
 * photos) opening beneath it. The whole row is the button's target, so a thumb anywhere opens it.
 */
export function ProjectList({ projects, openId, onToggle, onChanged }: ProjectListProps) {
  return (
    <div className="overflow-hidden rounded-[var(--radius-card)] border border-concrete-200 bg-white">
      <div aria-hidden="true" className={`hidden border-b border-concrete-200 bg-paper px-4 py-2 text-xs font-semibold tracking-wide text-concrete-600 uppercase ${GRID}`}>
        <span>Project</span>
        <span>Step</span>
        <span>Day</span>
        <span>Crew</span>
        <span>Proof</span>
      </div>
      <ul className="divide-y divide-concrete-200">
        {projects.map((project) => {
          const isOpen = project.id === openId;
          const step = findProjectStep(project.currentStep);
          const day = installationDay(project);
          const panelId = `project-panel-${project.id}`;
          return (
            <li key={project.id} data-testid="project-row" className={project.isToday ? 'bg-accent-50/40' : undefined}>
              {/* On a phone a row is two lines, at most about 100 px: the name (the tap target), then
                  step, day, crew and proof run together; the e-mail and the step's name are on the card. */}
              <div className={`relative px-4 py-1.5 ${GRID} hover:bg-paper`}>
                <div className="flex min-w-0 items-start justify-between gap-3">
                  <div className="min-w-0">
                    <button
                      type="button"
                      aria-expanded={isOpen}
                      aria-controls={panelId}
                      onClick={() => onToggle(project.id)}
                      className="min-h-11 text-left font-semibold text-ink after:absolute after:inset-0 after:content-[''] focus-visible:outline-none focus-visible:after:rounded-lg focus-visible:after:ring-2 focus-visible:after:ring-ink"
                    >
                      <span className="text-concrete-600">#{project.id}</span> {project.firstName} {project.lastName}
                    </button>
                    {project.isTest && (
                      <span className="ml-2 inline-block rounded-full bg-warning-50 px-2 py-0.5 align-middle text-xs font-bold text-warning-700">TEST</span>
                    )}
                    <p className="truncate text-sm text-concrete-600 max-sm:hidden" title={project.email}>
                      {project.email}
                    </p>
                  </div>
                  <Chevron open={isOpen} />
                </div>
                <dl className="flex flex-wrap gap-x-3 gap-y-0.5 text-sm sm:contents">
                  <div className="sm:min-w-0">
                    <dt className="sr-only">Step</dt>
                    <dd>
                      <span className="rounded-full bg-accent-50 px-2.5 py-0.5 font-semibold text-accent-800">
                        {project.currentStep}/{TOTAL_PROJECT_STEPS}
                      </span>{' '}
                      <span className="text-concrete-700 max-sm:sr-only">{step?.name}</span>
                    </dd>
                  </div>
                  <div className="sm:min-w-0">
                    <dt className="sr-only">Installation day</dt>
                    <dd>
                      {project.isToday ? <span className="font-semibold text-accent-800">Today</span> : formatDay(day)}
                      {!project.installationDate && <span className="text-concrete-600"> (preferred)</span>}
                    </dd>
                  </div>
                  {/* On a phone an empty crew or proof cell takes no room; the columns keep their place from 640 px. */}
                  <div className={`flex gap-1 sm:block sm:min-w-0 ${project.crew ? '' : 'max-sm:hidden'}`}>
                    <dt className="text-concrete-600 sm:sr-only">Crew:</dt>
                    <dd className="min-w-0">
                      <CrewStatus crew={project.crew} />
                    </dd>
                  </div>
                  <div className={`flex gap-1 sm:block sm:min-w-0 ${project.proof ? '' : 'max-sm:hidden'}`}>
                    <dt className="text-concrete-600 sm:sr-only">Proof:</dt>
                    <dd className="min-w-0">
                      <ProofStatus proof={project.proof} />
                    </dd>
                  </div>
                </dl>
              </div>
              <div id={panelId} hidden={!isOpen} className="border-t border-concrete-200 bg-paper p-2 sm:p-4">
                {isOpen && <ProjectCard project={project} onChanged={() => onChanged(project.id)} />}
              </div>
            </li>
          );
        })}
      </ul>
    </div>
  );
}

function CrewStatus({ crew }: { crew: ProjectCrew | null | undefined }) {
  if (!crew) return <span className="text-concrete-600">—</span>;
  return (
    <span>
      <span className={crew.status === 'done' ? 'font-semibold text-accent-800' : 'font-semibold'}>{CREW_STATUS_LABEL[crew.status as CrewStopStatus] ?? crew.status}</span>
      {crew.at && <span className="text-concrete-600"> {formatInstant(crew.at).split(', ').at(-1)}</span>}
      {crew.workerName && <span className="truncate text-concrete-600 sm:block"> {crew.workerName}</span>}
    </span>
  );
}

function ProofStatus({ proof }: { proof: ProofSummary | null | undefined }) {
  if (!proof) return <span className="text-concrete-600">—</span>;
  return (
    <span>
      <span className="font-semibold">{PROOF_STATUS_LABEL[proof.status]}</span>
      <span className="text-concrete-600"> v{proof.version}</span>
      {proof.since && <span className="block text-concrete-600 max-sm:hidden">since {formatInstant(proof.since)}</span>}
    </span>
  );
}

function Chevron({ open }: { open: boolean }) {
  return (
    <svg
      width="20"
      height="20"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      aria-hidden="true"
      className={`mt-3 shrink-0 text-concrete-500 transition-transform motion-reduce:transition-none sm:hidden ${open ? 'rotate-180' : ''}`}
    >
      <path d="M6 9l6 6 6-6" />
    </svg>
  );
}

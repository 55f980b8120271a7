import { BUSINESS } from '../../content/business.ts';
import { ICON_PROPS } from '../shared/icon-props.ts';

/** The business's phone, e-mail and support hours (public-site.md §9), as large tap targets. */
export function ContactLines() {
  return (
    <ul className="mt-4 space-y-2">
      <li>
        <a href={BUSINESS.phoneHref} className="inline-flex min-h-11 items-center gap-3 font-semibold text-ink underline-offset-4 hover:underline">
          <PhoneIcon />
          {BUSINESS.phone}
        </a>
      </li>
      <li>
        <a href={BUSINESS.emailHref} className="inline-flex min-h-11 items-center gap-3 font-semibold break-all text-ink underline-offset-4 hover:underline">
          <MailIcon />
          {BUSINESS.email}
        </a>
      </li>
      <li className="text-sm text-concrete-600">{BUSINESS.supportHours.text}</li>
    </ul>
  );
}

function PhoneIcon() {
  return (
    <svg {...ICON_PROPS} className="shrink-0 text-accent-700">
      <path d="M5 4h4l2 5-2.5 1.5a11 11 0 0 0 5 5L15 13l5 2v4a2 2 0 0 1-2 2A16 16 0 0 1 3 6a2 2 0 0 1 2-2" />
    </svg>
  );
}
function MailIcon() {
  return (
    <svg {...ICON_PROPS} className="shrink-0 text-accent-700">
      <rect x="3" y="5" width="18" height="14" rx="2" />
      <path d="M3 7l9 6 9-6" />
    </svg>
  );
}


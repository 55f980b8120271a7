import { BUSINESS } from '../../../content/business.ts';
import type { EmailMessage } from '../../providers/email-outbox.ts';
import { escapeHtml, layout, oneLine, text } from './layout.ts';

// The staff account e-mails: an invitation to the dashboard and a password reset. Each carries a
// single-use link valid 48 hours (api.md "Staff accounts"); the link is the only secret in it.

export interface StaffLinkContext {
  to: string;
  name: string;
  role: string;
  url: string;
  invitedBy: string;
}

export function staffInvitationEmail(context: StaffLinkContext): EmailMessage {
  const intro = `${oneLine(context.invitedBy)} has invited you to the ${BUSINESS.name} dashboard as ${context.role}.`;
  const action = 'Open this link within 48 hours to choose your password (it works once):';
  return {
    to: context.to,
    subject: `Your ${BUSINESS.name} dashboard invitation`,
    text: text([`Hello ${oneLine(context.name)},`, '', intro, '', action, context.url, '', 'If you did not expect this, ignore this e-mail.']),
    html: layout(`<p>Hello ${escapeHtml(oneLine(context.name))},</p>
<p>${escapeHtml(intro)}</p>
<p>${escapeHtml(action)}<br><a href="${escapeHtml(context.url)}">${escapeHtml(context.url)}</a></p>
<p>If you did not expect this, ignore this e-mail.</p>`),
    kind: 'staff-invitation',
  };
}

export function staffPasswordResetEmail(context: StaffLinkContext): EmailMessage {
  const intro = `${oneLine(context.invitedBy)} has sent you a link to set a new password for the ${BUSINESS.name} dashboard.`;
  const action = 'Open this link within 48 hours to choose it (it works once):';
  return {
    to: context.to,
    subject: `Set a new ${BUSINESS.name} dashboard password`,
    text: text([`Hello ${oneLine(context.name)},`, '', intro, '', action, context.url, '', 'Your current password keeps working until then.']),
    html: layout(`<p>Hello ${escapeHtml(oneLine(context.name))},</p>
<p>${escapeHtml(intro)}</p>
<p>${escapeHtml(action)}<br><a href="${escapeHtml(context.url)}">${escapeHtml(context.url)}</a></p>
<p>Your current password keeps working until then.</p>`),
    kind: 'staff-password-reset',
  };
}

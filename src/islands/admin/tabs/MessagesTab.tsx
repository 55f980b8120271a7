import { MessagesSection } from '../messages/MessagesSection.tsx';

/**
 * The Messages tab: every e-mail the site wrote, in a place of its own rather than at the foot
 * of the Logs tab, where a phone reached it after thousands of pixels of activity.
 */
export default function MessagesTab() {
  return <MessagesSection />;
}

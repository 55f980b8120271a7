// The one yes/no dialog lives with the shared pieces: the tracking page asks with it too.
export { ConfirmDialog } from '../../shared/ConfirmDialog.tsx';

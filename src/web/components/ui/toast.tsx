import {
  Button as AriaButton,
  Text,
  UNSTABLE_Toast as AriaToast,
  UNSTABLE_ToastContent as ToastContent,
  UNSTABLE_ToastQueue as ToastQueue,
  UNSTABLE_ToastRegion as AriaToastRegion,
} from 'react-aria-components';
import { AlertIcon, CheckIcon, CloseIcon } from './icons';

/** What a toast says. */
export interface ToastContentValue {
  tone: 'success' | 'danger' | 'info';
  title: string;
  description?: string;
  /** A button in the toast ("Undo"); pressing it closes the toast. */
  action?: ToastAction;
}

/** What a toast's button does. */
export interface ToastAction {
  label: string;
  onAction: () => void;
}

/** Toasts with a button stay longer, so there is time to reach it (F6 moves to the notifications). */
const ACTION_TIMEOUT_MS = 12_000;

/** How long confirmations stay; errors stay until dismissed, so nobody misses why something failed. */
const SUCCESS_TIMEOUT_MS = 5_000;

/** The app's one toast queue (react-aria: a landmark region, F6 reaches it, toasts announced politely). */
export const toastQueue = new ToastQueue<ToastContentValue>({ maxVisibleToasts: 4 });

/** Shows toasts; call from anywhere (event handlers, query callbacks). */
export const toast = {
  success: (title: string, description?: string, action?: ToastAction) =>
    toastQueue.add(
      { tone: 'success', title, description, action },
      { timeout: action ? ACTION_TIMEOUT_MS : SUCCESS_TIMEOUT_MS },
    ),
  info: (title: string, description?: string) =>
    toastQueue.add({ tone: 'info', title, description }, { timeout: SUCCESS_TIMEOUT_MS }),
  error: (title: string, description?: string) => toastQueue.add({ tone: 'danger', title, description }),
};

/** Renders the queue; mount once near the root. */
export function ToastRegion({ queue = toastQueue }: { queue?: ToastQueue<ToastContentValue> }) {
  return (
    <AriaToastRegion queue={queue} className="toast-region" aria-label="Notifications">
      {({ toast: item }) => (
        <AriaToast toast={item} className={`toast toast--${item.content.tone}`}>
          <span className="toast__icon" aria-hidden="true">
            {item.content.tone === 'success' ? <CheckIcon /> : <AlertIcon />}
          </span>
          <ToastContent className="toast__content">
            <Text slot="title" className="toast__title">
              {item.content.title}
            </Text>
            {item.content.description && (
              <Text slot="description" className="toast__description">
                {item.content.description}
              </Text>
            )}
          </ToastContent>
          {item.content.action && (
            <AriaButton
              className="btn btn--secondary btn--sm"
              onPress={() => {
                item.content.action?.onAction();
                queue.close(item.key);
              }}
            >
              {item.content.action.label}
            </AriaButton>
          )}
          <AriaButton slot="close" aria-label="Dismiss" className="btn btn--quiet btn--sm btn--icon">
            <CloseIcon />
          </AriaButton>
        </AriaToast>
      )}
    </AriaToastRegion>
  );
}

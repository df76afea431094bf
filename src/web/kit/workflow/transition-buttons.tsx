import { useEffect, useRef, useState } from 'react';
import type { TransitionName, TransitionsResponse } from '../../../shared/api/workflow';
import { Button } from '../../components/ui/button';
import { focusWhenDropped } from '../../lib/focus-later';
import { RejectDialog } from './reject-dialog';
import { sortTransitions, transitionLabel, type TransitionWording } from './transitions';
import './workflow.css';

/**
 * The transitions the server offers now (`GET …/transitions/<path>`), as buttons named for what they do. The
 * step forward (Approve, Submit, Resubmit) is the primary one; Reject and Archive are quieter. Reject first asks
 * why (the reason goes with it as `comment`).
 */
export function TransitionButtons({
  transitions,
  onTransition,
  pending,
  isDisabled,
  wording,
  label = 'Workflow',
  emphasiseFirst = true,
}: {
  transitions: TransitionsResponse['transitions'];
  /** `comment` is the reason of a Reject (always given there). */
  onTransition: (name: TransitionName, comment?: string) => void;
  /** The transition under way (its button spins, the others wait). */
  pending?: TransitionName | null;
  isDisabled?: boolean;
  wording?: TransitionWording;
  /** Accessible name of the group. */
  label?: string;
  /** Show the step forward as the primary button (false where another button is the screen's primary one). */
  emphasiseFirst?: boolean;
}) {
  const group = useRef<HTMLDivElement>(null);
  // A transition done from here swaps the buttons (Reject's goes): the focus stays in the group, on its first one.
  const pressed = useRef(false);
  const [rejecting, setRejecting] = useState(false);
  const offered = transitions.map((t) => t.name).join();
  useEffect(() => {
    if (!pressed.current) return;
    pressed.current = false;
    return focusWhenDropped(() => group.current?.querySelector<HTMLElement>('button:not([disabled])'));
  }, [offered]);

  if (transitions.length === 0) return null;
  const sorted = sortTransitions(transitions);
  return (
    <div className="transition-buttons" role="group" aria-label={label} ref={group}>
      {sorted.map((t, i) => (
        <Button
          key={t.name}
          size="sm"
          variant={emphasiseFirst && i === 0 && t.name !== 'Reject' && t.name !== 'Archive' ? 'primary' : 'secondary'}
          onPress={() => {
            if (t.name === 'Reject') return setRejecting(true);
            pressed.current = true;
            onTransition(t.name);
          }}
          isPending={pending === t.name}
          isDisabled={isDisabled || (Boolean(pending) && pending !== t.name)}
        >
          {transitionLabel(t.name, wording)}
        </Button>
      ))}
      <RejectDialog
        isOpen={rejecting}
        onOpenChange={setRejecting}
        onReject={(reason) => {
          setRejecting(false);
          pressed.current = true;
          onTransition('Reject', reason);
        }}
      />
    </div>
  );
}

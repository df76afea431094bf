/** A workflow state as a badge (Draft and Review stand out; Public reads as done). */
export function WorkflowBadge({ state, className }: { state: string; className?: string }) {
  const tone = state.replace(/\s+/g, '-').toLowerCase();
  return <span className={`badge workflow-badge workflow-badge--${tone} ${className ?? ''}`.trim()}>{state}</span>;
}

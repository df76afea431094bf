/** A small busy indicator; decorative (the busy state is announced by the control or region that owns it). */
export function Spinner({ size = 'sm' }: { size?: 'sm' | 'lg' }) {
  return <span className={`spinner spinner--${size}`} aria-hidden="true" />;
}

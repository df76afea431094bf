/** How the editor takes over from the static view: at a point of it (px from its corner), at the start, unfocused. */
export type Activation = { x: number; y: number } | 'start' | 'none';

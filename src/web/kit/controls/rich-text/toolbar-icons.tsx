import type { SVGProps } from 'react';

/* Icons of the rich text toolbar (24-unit grid, currentColor, decorative: every button has a name). */
type P = SVGProps<SVGSVGElement>;
const Svg = ({ children, ...p }: P) => (
  <svg
    width="1em"
    height="1em"
    viewBox="0 0 24 24"
    fill="none"
    stroke="currentColor"
    strokeWidth={2}
    strokeLinecap="round"
    strokeLinejoin="round"
    aria-hidden="true"
    focusable="false"
    {...p}
  >
    {children}
  </svg>
);

export const BoldIcon = (p: P) => (
  <Svg {...p}>
    <path d="M6 4h8a4 4 0 0 1 0 8H6zM6 12h9a4 4 0 0 1 0 8H6z" />
  </Svg>
);
export const ItalicIcon = (p: P) => (
  <Svg {...p}>
    <path d="M19 4h-9M14 20H5M15 4 9 20" />
  </Svg>
);
export const UnderlineIcon = (p: P) => (
  <Svg {...p}>
    <path d="M6 4v6a6 6 0 0 0 12 0V4M4 20h16" />
  </Svg>
);
export const StrikeIcon = (p: P) => (
  <Svg {...p}>
    <path d="M16 4H9a3 3 0 0 0-2.8 4M14 12a4 4 0 0 1 0 8H6M4 12h16" />
  </Svg>
);
export const InlineCodeIcon = (p: P) => (
  <Svg {...p}>
    <path d="m16 18 6-6-6-6M8 6l-6 6 6 6" />
  </Svg>
);
export const BulletListIcon = (p: P) => (
  <Svg {...p}>
    <path d="M9 6h11M9 12h11M9 18h11M4 6h.01M4 12h.01M4 18h.01" />
  </Svg>
);
export const OrderedListIcon = (p: P) => (
  <Svg {...p}>
    <path d="M10 6h11M10 12h11M10 18h11M4 6h1v4M4 10h2M6 18H4c0-1 2-2 2-3s-1-1.5-2-1" />
  </Svg>
);
export const QuoteIcon = (p: P) => (
  <Svg {...p}>
    <path d="M3 21c3 0 7-1 7-8V5c0-1.25-.76-2-2-2H4c-1.25 0-2 .75-2 2v6c0 1.25.75 2 2 2 1 0 1 0 1 1v1c0 1-1 2-2 2s-1 .01-1 1.03V20c0 1 0 1 1 1zM15 21c3 0 7-1 7-8V5c0-1.25-.76-2-2-2h-4c-1.25 0-2 .75-2 2v6c0 1.25.75 2 2 2h.75c0 2.25.25 4-2.75 4v3c0 1 0 1 1 1z" />
  </Svg>
);
export const RuleIcon = (p: P) => (
  <Svg {...p}>
    <path d="M3 12h18" />
  </Svg>
);
export const LinkIcon = (p: P) => (
  <Svg {...p}>
    <path d="M10 13a5 5 0 0 0 7.5.5l3-3a5 5 0 0 0-7-7l-1.7 1.7M14 11a5 5 0 0 0-7.5-.5l-3 3a5 5 0 0 0 7 7l1.7-1.7" />
  </Svg>
);
export const ImageIcon = (p: P) => (
  <Svg {...p}>
    <rect x="3" y="3" width="18" height="18" rx="2" />
    <circle cx="9" cy="9" r="2" />
    <path d="m21 15-5-5L5 21" />
  </Svg>
);
export const TableIcon = (p: P) => (
  <Svg {...p}>
    <rect x="3" y="3" width="18" height="18" rx="2" />
    <path d="M3 9h18M3 15h18M12 3v18" />
  </Svg>
);
export const UndoIcon = (p: P) => (
  <Svg {...p}>
    <path d="M3 7v6h6M21 17a9 9 0 0 0-15-6.7L3 13" />
  </Svg>
);
export const RedoIcon = (p: P) => (
  <Svg {...p}>
    <path d="M21 7v6h-6M3 17a9 9 0 0 1 15-6.7L21 13" />
  </Svg>
);
export const SourceIcon = (p: P) => (
  <Svg {...p}>
    <path d="M4 4h16v16H4zM9 9l-2 3 2 3M15 9l2 3-2 3" />
  </Svg>
);

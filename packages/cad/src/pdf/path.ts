/** Paths as a PDF page builds them, in page millimetres: shared by the page replay and the clipper. */
export type Pt = [number, number];

export type Segment = { kind: 'line'; to: Pt } | { kind: 'curve'; c1: Pt; c2: Pt; to: Pt };

export interface Subpath {
  start: Pt;
  segments: Segment[];
  closed: boolean;
}

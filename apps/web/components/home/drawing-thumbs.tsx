import { useId } from 'react';
import type { ReactNode } from 'react';
import type { HomeDailypicKey } from '@/lib/navigation/home-links';

// Thumbnails of the daily-picture teaser, drawn for this site in CAD colours on a dark canvas.

function Canvas({ children }: { readonly children: ReactNode }) {
  const id = useId();
  return (
    <svg viewBox="0 0 280 180" width="280" height="180" aria-hidden="true" focusable="false" preserveAspectRatio="xMidYMid slice">
      <defs>
        <pattern id={`${id}-grid`} width="14" height="14" patternUnits="userSpaceOnUse">
          <path d="M14 0H0v14" fill="none" stroke="#1b2842" strokeWidth="1" />
        </pattern>
      </defs>
      <rect width="280" height="180" fill="#0f1a2e" />
      <rect width="280" height="180" fill={`url(#${id}-grid)`} />
      <g fill="none" strokeLinecap="round" strokeLinejoin="round">
        {children}
      </g>
    </svg>
  );
}

function FloorPlan() {
  return (
    <Canvas>
      <path d="M40 30h200v124H40z" stroke="#f1f5ff" strokeWidth="3" />
      <path d="M120 30v50M120 104v50M40 92h50M150 92h90M180 30v62" stroke="#f1f5ff" strokeWidth="2.2" />
      <path d="M90 92a24 24 0 0 1 24-24" stroke="#4dd4ff" strokeWidth="1.3" strokeDasharray="3 3" />
      <path d="M120 104a22 22 0 0 0 22 -22" stroke="#4dd4ff" strokeWidth="1.3" strokeDasharray="3 3" />
      <rect x="56" y="44" width="46" height="32" rx="3" stroke="#ffb86b" strokeWidth="1.4" />
      <path d="M56 52h46" stroke="#ffb86b" strokeWidth="1.2" />
      <rect x="140" y="112" width="70" height="26" rx="4" stroke="#ffb86b" strokeWidth="1.4" />
      <circle cx="210" cy="60" r="14" stroke="#7ee787" strokeWidth="1.4" />
      <rect x="56" y="112" width="40" height="28" rx="2" stroke="#7ee787" strokeWidth="1.4" />
      <path d="M40 20h200M40 16v8M120 16v8M240 16v8" stroke="#ffd166" strokeWidth="1" />
      <path d="M252 30v124M248 30h8M248 154h8" stroke="#ffd166" strokeWidth="1" />
    </Canvas>
  );
}

function Flange() {
  const holes = Array.from({ length: 8 }, (_, index) => (index * Math.PI) / 4);
  return (
    <Canvas>
      <path d="M96 20v140M26 90h140" stroke="#ff6b6b" strokeWidth="1" strokeDasharray="10 3 2 3" />
      <circle cx="96" cy="90" r="60" stroke="#f1f5ff" strokeWidth="2.4" />
      <circle cx="96" cy="90" r="24" stroke="#f1f5ff" strokeWidth="2.2" />
      <circle cx="96" cy="90" r="44" stroke="#ff6b6b" strokeWidth="1" strokeDasharray="10 3 2 3" />
      {holes.map((angle) => (
        <circle
          key={angle}
          cx={96 + 44 * Math.cos(angle)}
          cy={90 + 44 * Math.sin(angle)}
          r="6"
          stroke="#4dd4ff"
          strokeWidth="1.6"
        />
      ))}
      <path d="M196 30h22v120h-22zM218 60h30v60h-30z" stroke="#f1f5ff" strokeWidth="2" />
      <path d="M196 30l22 22M196 52l22 22M196 74l22 22M196 96l22 22M196 118l22 22" stroke="#7ee787" strokeWidth="1" />
      <path d="M186 90h74" stroke="#ff6b6b" strokeWidth="1" strokeDasharray="10 3 2 3" />
      <path d="M196 164h52M196 160v8M248 160v8" stroke="#ffd166" strokeWidth="1" />
    </Canvas>
  );
}

function Circuit() {
  return (
    <Canvas>
      <path d="M30 30h220M30 50h220M30 70h220" stroke="#ffd166" strokeWidth="1.6" />
      <path d="M60 30v30M60 70v20M100 50v40M140 70v20" stroke="#f1f5ff" strokeWidth="1.6" />
      <path d="M54 90l6 12 6-12M94 90l6 12 6-12M134 90l6 12 6-12" stroke="#4dd4ff" strokeWidth="1.6" />
      <path d="M60 102v18M100 102v18M140 102v18" stroke="#f1f5ff" strokeWidth="1.6" />
      <circle cx="100" cy="142" r="20" stroke="#7ee787" strokeWidth="2" />
      <path d="M60 120q0 22 20 22M140 120q0 22-20 22" stroke="#f1f5ff" strokeWidth="1.6" />
      <path d="M92 150v-16l8 10 8-10v16" stroke="#7ee787" strokeWidth="1.8" />
      <path d="M190 30v24M190 64v16M182 54l16 10M190 80v16" stroke="#f1f5ff" strokeWidth="1.6" />
      <rect x="180" y="96" width="20" height="14" stroke="#ff6b6b" strokeWidth="1.6" />
      <path d="M190 110v14M226 50v20M218 70h16M226 70v26M216 96h20v14h-20zM226 110v14M190 124h36v26" stroke="#f1f5ff" strokeWidth="1.6" />
    </Canvas>
  );
}

function Elevation() {
  return (
    <Canvas>
      <path d="M20 150h240M30 26h220v124H30z" stroke="#f1f5ff" strokeWidth="2.2" />
      <rect x="90" y="52" width="100" height="58" rx="3" stroke="#4dd4ff" strokeWidth="1.8" />
      <path d="M96 58h88v46H96z" stroke="#4dd4ff" strokeWidth="0.8" />
      <path d="M60 126h160v24H60zM100 126v24M140 126v24M180 126v24" stroke="#ffb86b" strokeWidth="1.6" />
      <path d="M42 40h30v96M42 60h30M42 80h30M42 100h30M208 40h30v96M208 60h30M208 80h30M208 100h30" stroke="#7ee787" strokeWidth="1.3" />
      <path d="M30 16h220M30 12v8M250 12v8M140 12v8" stroke="#ffd166" strokeWidth="1" />
      <path d="M262 26v124M258 26h8M258 150h8" stroke="#ffd166" strokeWidth="1" />
    </Canvas>
  );
}

const THUMBS: Readonly<Record<HomeDailypicKey, () => ReactNode>> = {
  plan: FloorPlan,
  flange: Flange,
  circuit: Circuit,
  elevation: Elevation,
};

export function DrawingThumb({ name }: { readonly name: HomeDailypicKey }) {
  const Thumb = THUMBS[name];
  return <Thumb />;
}

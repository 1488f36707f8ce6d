import type { ReactNode, SVGProps } from 'react';

// Line icons drawn for this site on a 24x24 grid (stroke = currentColor), so they follow the
// text colour and need no icon font or network request.

export type IconProps = Omit<SVGProps<SVGSVGElement>, 'children'> & { readonly size?: number };

function Icon({ size = 20, children, ...rest }: IconProps & { readonly children: ReactNode }) {
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.8}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
      {...rest}
    >
      {children}
    </svg>
  );
}

export const ChevronDownIcon = (props: IconProps) => (
  <Icon {...props}>
    <path d="m6 9 6 6 6-6" />
  </Icon>
);

export const ChevronLeftIcon = (props: IconProps) => (
  <Icon {...props}>
    <path d="m15 6-6 6 6 6" />
  </Icon>
);

export const ChevronRightIcon = (props: IconProps) => (
  <Icon {...props}>
    <path d="m9 6 6 6-6 6" />
  </Icon>
);

export const ArrowRightIcon = (props: IconProps) => (
  <Icon {...props}>
    <path d="M5 12h14M13 6l6 6-6 6" />
  </Icon>
);

export const ArrowUpIcon = (props: IconProps) => (
  <Icon {...props}>
    <path d="M12 19V5M6 11l6-6 6 6" />
  </Icon>
);

export const MenuIcon = (props: IconProps) => (
  <Icon {...props}>
    <path d="M4 6h16M4 12h16M4 18h16" />
  </Icon>
);

export const CloseIcon = (props: IconProps) => (
  <Icon {...props}>
    <path d="M6 6l12 12M18 6 6 18" />
  </Icon>
);

export const UserIcon = (props: IconProps) => (
  <Icon {...props}>
    <circle cx="12" cy="8" r="4" />
    <path d="M4 20c1.5-3.6 4.4-5.5 8-5.5s6.5 1.9 8 5.5" />
  </Icon>
);

export const LogoutIcon = (props: IconProps) => (
  <Icon {...props}>
    <path d="M10 4H6a2 2 0 0 0-2 2v12a2 2 0 0 0 2 2h4" />
    <path d="M15 16l4-4-4-4M19 12H9" />
  </Icon>
);

export const CrownIcon = (props: IconProps) => (
  <Icon {...props}>
    <path d="M4 8l4 3.5L12 5l4 6.5L20 8l-1.6 10H5.6z" />
  </Icon>
);

export const ReceiptIcon = (props: IconProps) => (
  <Icon {...props}>
    <path d="M6 3h12v18l-3-2-3 2-3-2-3 2z" />
    <path d="M9 8h6M9 12h6M9 16h3" />
  </Icon>
);

export const PhoneIcon = (props: IconProps) => (
  <Icon {...props}>
    <path d="M5 4h3.5l1.7 4.3-2.2 1.4a11 11 0 0 0 6.3 6.3l1.4-2.2L20 15.5V19a1.5 1.5 0 0 1-1.6 1.5A16.5 16.5 0 0 1 3.5 5.6 1.5 1.5 0 0 1 5 4z" />
  </Icon>
);

export const MailIcon = (props: IconProps) => (
  <Icon {...props}>
    <rect x="3" y="5" width="18" height="14" rx="2" />
    <path d="m4 7 8 6 8-6" />
  </Icon>
);

export const CopyIcon = (props: IconProps) => (
  <Icon {...props}>
    <rect x="9" y="9" width="11" height="11" rx="2" />
    <path d="M15 9V6a2 2 0 0 0-2-2H6a2 2 0 0 0-2 2v7a2 2 0 0 0 2 2h3" />
  </Icon>
);

export const ClockIcon = (props: IconProps) => (
  <Icon {...props}>
    <circle cx="12" cy="12" r="8.5" />
    <path d="M12 7.5V12l3 2" />
  </Icon>
);

export const HeadsetIcon = (props: IconProps) => (
  <Icon {...props}>
    <path d="M4 14v-2a8 8 0 0 1 16 0v2" />
    <rect x="3" y="13" width="4" height="6" rx="1.5" />
    <rect x="17" y="13" width="4" height="6" rx="1.5" />
    <path d="M19 19c0 1.5-2 2.5-5 2.5" />
  </Icon>
);

/** A chat bubble with a small penguin-like face, standing for QQ customer service. */
export const QqChatIcon = (props: IconProps) => (
  <Icon {...props}>
    <path d="M12 3.5c-3.3 0-5.5 2.6-5.5 6 0 1-.2 1.7-.8 2.6-.8 1.2-1.7 2.6-1.2 3.9.3.7 1 .5 1.7-.2.4 1.2 1.1 2.2 2 2.9-1 .4-1.7.9-1.4 1.5.4.7 2.4.6 4 .2h2.4c1.6.4 3.6.5 4-.2.3-.6-.4-1.1-1.4-1.5.9-.7 1.6-1.7 2-2.9.7.7 1.4.9 1.7.2.5-1.3-.4-2.7-1.2-3.9-.6-.9-.8-1.6-.8-2.6 0-3.4-2.2-6-5.5-6z" />
    <circle cx="10.2" cy="9" r=".6" fill="currentColor" />
    <circle cx="13.8" cy="9" r=".6" fill="currentColor" />
  </Icon>
);

export const ChatIcon = (props: IconProps) => (
  <Icon {...props}>
    <path d="M4 5.5A1.5 1.5 0 0 1 5.5 4h13A1.5 1.5 0 0 1 20 5.5v9a1.5 1.5 0 0 1-1.5 1.5H10l-4.5 4v-4h0A1.5 1.5 0 0 1 4 14.5z" />
    <path d="M8.5 10h.01M12 10h.01M15.5 10h.01" strokeWidth={2.6} />
  </Icon>
);

export const DownloadIcon = (props: IconProps) => (
  <Icon {...props}>
    <path d="M12 4v11M7 10.5l5 5 5-5" />
    <path d="M4 17v1.5A1.5 1.5 0 0 0 5.5 20h13a1.5 1.5 0 0 0 1.5-1.5V17" />
  </Icon>
);

export const CheckIcon = (props: IconProps) => (
  <Icon {...props}>
    <path d="m5 12.5 4.5 4.5L19 7.5" />
  </Icon>
);

export const ShieldIcon = (props: IconProps) => (
  <Icon {...props}>
    <path d="M12 3 5 6v5.5c0 4.3 3 7.8 7 9.5 4-1.7 7-5.2 7-9.5V6z" />
    <path d="m9 12 2.2 2.2L15.5 10" />
  </Icon>
);

export const LayersIcon = (props: IconProps) => (
  <Icon {...props}>
    <path d="m12 4 8.5 4.5L12 13 3.5 8.5z" />
    <path d="m3.5 12.5 8.5 4.5 8.5-4.5M3.5 16.5 12 21l8.5-4.5" />
  </Icon>
);

export const DevicesIcon = (props: IconProps) => (
  <Icon {...props}>
    <rect x="2.5" y="5" width="14" height="10" rx="1.5" />
    <path d="M6 19h6M9.5 15v4" />
    <rect x="17" y="9" width="4.5" height="10" rx="1" />
  </Icon>
);

export const BoltIcon = (props: IconProps) => (
  <Icon {...props}>
    <path d="M13 3 5 13.5h6L10 21l8-10.5h-6z" />
  </Icon>
);

/* Sign-in methods (the login modal): drawn here, no brand assets fetched. */

export const SmartphoneIcon = (props: IconProps) => (
  <Icon {...props}>
    <rect x="6" y="2.5" width="12" height="19" rx="2.5" />
    <path d="M10.5 18.5h3" />
  </Icon>
);

export const QrCodeIcon = (props: IconProps) => (
  <Icon {...props}>
    <rect x="3.5" y="3.5" width="6.5" height="6.5" rx="1" />
    <rect x="14" y="3.5" width="6.5" height="6.5" rx="1" />
    <rect x="3.5" y="14" width="6.5" height="6.5" rx="1" />
    <path d="M14 14h2.5v2.5H14zM18 18h2.5v2.5H18zM14 19h1.5M19.5 14v1.5" strokeLinecap="butt" />
  </Icon>
);

/** A penguin-like mark standing for QQ, filled rather than drawn in line. */
export const QqIcon = (props: IconProps) => (
  <Icon {...props}>
    <path
      fill="currentColor"
      stroke="none"
      d="M12 2.2c-3.2 0-5.4 2.5-5.4 5.9v1.2c-.9 1-1.9 2.6-2.3 4.2-.4 1.8.1 2.6.5 2.6.5 0 1-.8 1.4-1.6.3 1.3 1 2.4 2 3.3-1.2.4-2 1-2 1.7 0 1 1.9 1.6 4.1 1.6 1.3 0 2.4-.2 3.2-.6h.9c.8.4 1.9.6 3.2.6 2.2 0 4.1-.6 4.1-1.6 0-.7-.8-1.3-2-1.7 1-.9 1.7-2 2-3.3.4.8.9 1.6 1.4 1.6.4 0 .9-.8.5-2.6-.4-1.6-1.4-3.2-2.3-4.2V8.1c0-3.4-2.2-5.9-5.3-5.9z"
    />
  </Icon>
);

/* Product and service glyphs used in the menu, the mobile menu and the home page. */

export const EditorGlyph = (props: IconProps) => (
  <Icon {...props}>
    <path d="M4 20h16" />
    <path d="M6 16.5 15.5 7l2.5 2.5L8.5 19H6z" />
    <path d="m13.5 9 2.5 2.5" />
    <path d="M4 4h6M4 4v6" strokeDasharray="1.5 2" />
  </Icon>
);

export const ConverterGlyph = (props: IconProps) => (
  <Icon {...props}>
    <path d="M5 9h12l-3.5-3.5" />
    <path d="M19 15H7l3.5 3.5" />
  </Icon>
);

export const ViewerGlyph = (props: IconProps) => (
  <Icon {...props}>
    <path d="M2.5 12S6 5.5 12 5.5 21.5 12 21.5 12 18 18.5 12 18.5 2.5 12 2.5 12z" />
    <circle cx="12" cy="12" r="3" />
  </Icon>
);

export const ToolboxGlyph = (props: IconProps) => (
  <Icon {...props}>
    <rect x="3" y="8" width="18" height="12" rx="2" />
    <path d="M9 8V5.5A1.5 1.5 0 0 1 10.5 4h3A1.5 1.5 0 0 1 15 5.5V8" />
    <path d="M3 13h18M10 13v2h4v-2" />
  </Icon>
);

export const CourseGlyph = (props: IconProps) => (
  <Icon {...props}>
    <rect x="3" y="4.5" width="18" height="12.5" rx="2" />
    <path d="m10.5 8 4 2.75-4 2.75z" />
    <path d="M8 20.5h8" />
  </Icon>
);

export const LibraryGlyph = (props: IconProps) => (
  <Icon {...props}>
    <rect x="3.5" y="3.5" width="7" height="7" rx="1" />
    <rect x="13.5" y="3.5" width="7" height="7" rx="1" />
    <rect x="3.5" y="13.5" width="7" height="7" rx="1" />
    <circle cx="17" cy="17" r="3.5" />
  </Icon>
);

export const MobileGlyph = (props: IconProps) => (
  <Icon {...props}>
    <rect x="6.5" y="2.5" width="11" height="19" rx="2.2" />
    <path d="M11 18.5h2" />
    <path d="M9.5 9h5l-1.8-1.8M14.5 12.5h-5l1.8 1.8" />
  </Icon>
);

export const BasicsGlyph = (props: IconProps) => (
  <Icon {...props}>
    <path d="M12 20v-7" />
    <path d="M12 13c0-3.5-2.5-6-6.5-6 0 3.5 2.5 6 6.5 6z" />
    <path d="M12 11c0-3 2-5.5 6.5-5.5 0 3.5-2.5 5.5-6.5 5.5z" />
    <path d="M7 20h10" />
  </Icon>
);

export const MasterGlyph = (props: IconProps) => (
  <Icon {...props}>
    <path d="m12 4 9.5 4.5L12 13 2.5 8.5z" />
    <path d="M6.5 10.5v4.5c1.2 1.3 3.2 2 5.5 2s4.3-.7 5.5-2v-4.5" />
    <path d="M21.5 8.5v5" />
  </Icon>
);

function DocumentBase({ label, ...props }: IconProps & { readonly label: ReactNode }) {
  return (
    <Icon {...props}>
      <path d="M14 3H6.5A1.5 1.5 0 0 0 5 4.5v15A1.5 1.5 0 0 0 6.5 21h11a1.5 1.5 0 0 0 1.5-1.5V8z" />
      <path d="M14 3v5h5" />
      {label}
    </Icon>
  );
}

export const PdfGlyph = (props: IconProps) => (
  <DocumentBase {...props} label={<path d="M8.5 17v-4h1.5a1.2 1.2 0 0 1 0 2.4H8.5M13 13v4M13 13h2.5M13 15h2" />} />
);

export const ImageGlyph = (props: IconProps) => (
  <Icon {...props}>
    <rect x="3" y="4" width="18" height="16" rx="2" />
    <circle cx="9" cy="9.5" r="1.8" />
    <path d="m3.5 17.5 5-5 4 4 2.5-2.5 5.5 5" />
  </Icon>
);

export const VersionGlyph = (props: IconProps) => (
  <Icon {...props}>
    <path d="M4 7.5A3.5 3.5 0 0 1 7.5 4H15" />
    <path d="m12.5 1.5 2.5 2.5-2.5 2.5" />
    <path d="M20 16.5a3.5 3.5 0 0 1-3.5 3.5H9" />
    <path d="m11.5 22.5-2.5-2.5 2.5-2.5" />
    <rect x="4" y="10" width="6.5" height="6.5" rx="1" />
    <rect x="13.5" y="7.5" width="6.5" height="6.5" rx="1" />
  </Icon>
);

export const PdfToCadGlyph = (props: IconProps) => <DocumentBase {...props} label={<path d="M8 16.5 10.5 12l2.5 2.5L16 10" />} />;

export const FeedbackGlyph = (props: IconProps) => (
  <Icon {...props}>
    <path d="M4 5.5A1.5 1.5 0 0 1 5.5 4h13A1.5 1.5 0 0 1 20 5.5v9a1.5 1.5 0 0 1-1.5 1.5H10l-4.5 4v-4A1.5 1.5 0 0 1 4 14.5z" />
    <path d="M8 8.5h8M8 12h5" />
  </Icon>
);

export const ComplaintGlyph = (props: IconProps) => (
  <Icon {...props}>
    <path d="M5 21V4" />
    <path d="M5 4.5h11.5l-2 4 2 4H5" />
  </Icon>
);

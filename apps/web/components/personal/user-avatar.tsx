import Image from 'next/image';
import type { CSSProperties } from 'react';
import { UserIcon } from '@/components/ui/icons';
import { avatarInitialOf } from '@/lib/auth/account-view';
import styles from './user-avatar.module.css';

/**
 * A user's avatar (spec §3 `head_portrait`): the picture when there is one, else the first
 * letter of the name on a brand tile, or a person's outline when the name does not start with a
 * letter. Decorative when `alt` is empty (the name is shown beside it).
 * `size` is the default in px; a `className` may set `--avatar-size` (e.g. in rem on mobile).
 */
export function UserAvatar({
  src,
  name,
  size,
  alt = '',
  className,
}: {
  readonly src: string;
  readonly name: string;
  readonly size: number;
  readonly alt?: string;
  readonly className?: string;
}) {
  const classes = [styles.avatar, className].filter(Boolean).join(' ');
  const style = { '--avatar-default': `${size}px` } as CSSProperties;
  if (src) {
    // WeChat and QQ serve avatars from their own hosts: shown as they are, not through the image optimiser.
    return <Image className={classes} style={style} src={src} alt={alt} width={size} height={size} unoptimized />;
  }
  const initial = avatarInitialOf(name);
  return (
    <span
      className={`${classes} ${styles.fallback}`}
      style={style}
      role={alt ? 'img' : undefined}
      aria-label={alt || undefined}
      aria-hidden={alt ? undefined : true}
    >
      {initial ?? <UserIcon className={styles.glyph} />}
    </span>
  );
}

import { siteConfig } from '@/config/site';
import { ClockIcon, MailIcon, PhoneIcon } from '@/components/ui/icons';
import styles from './contact-list.module.css';

/** The hotlines, the support mailbox and the service hours, as side panels of forms list them. */
export function ContactList({ labels }: { readonly labels: { readonly phone: string; readonly email: string; readonly hours: string } }) {
  const config = siteConfig();
  return (
    <ul className={styles.contacts}>
      <li>
        <PhoneIcon size={16} aria-hidden="true" />
        <span className={styles.label}>{labels.phone}</span>
        <span className={styles.values}>
          {config.phones.map((phone) => (
            <a key={phone} href={`tel:${phone.replace(/[^\d+]/g, '')}`}>
              {phone}
            </a>
          ))}
        </span>
      </li>
      <li>
        <MailIcon size={16} aria-hidden="true" />
        <span className={styles.label}>{labels.email}</span>
        <a href={`mailto:${config.supportEmail}`}>{config.supportEmail}</a>
      </li>
      <li>
        <ClockIcon size={16} aria-hidden="true" />
        <span>{labels.hours}</span>
      </li>
    </ul>
  );
}

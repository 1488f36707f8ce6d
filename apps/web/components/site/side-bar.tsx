import { siteConfig } from '@/config/site';
import { SideBarView } from './side-bar-view';

/**
 * The floating side bar of spec §2. A server component so the contact settings of
 * config/site.ts (server environment) reach the browser as props; the behaviour is SideBarView.
 */
export function SideBar() {
  const config = siteConfig();
  return <SideBarView qqChatUrl={config.qqChatUrl} chatUrl={config.chatUrl} downloadUrl={config.downloadUrl} phones={config.phones} />;
}

import type { TOperatorSection } from '@xcad/protocol';

// The console's sections that have pages in this build, in menu order (decision 0042). A section of
// OPERATOR_SECTIONS missing here has no page yet and is not offered in the menu.
export const BUILT_SECTIONS: readonly TOperatorSection[] = ['overview', 'users', 'analytics', 'audit', 'operators'];

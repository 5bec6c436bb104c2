import type { ComponentType } from 'react';
import type { SessionRole } from '../../../shared/session.ts';
import { ChatTab } from './chat-tab.tsx';
import { DocumentsTab } from './documents-tab.tsx';
import type { RoomTabProps } from './room-context.ts';
import { IdentityTab } from '../notarial-act/identity-tab.tsx';
import { SignSealTab } from '../notarial-act/sign-seal-tab.tsx';
import { PeopleTab } from '../participants/people-tab.tsx';

/**
 * The room's side panel: one entry per tab, in order. A feature that builds on
 * the room (identity proofing, signing and sealing) adds its tab here; the
 * component receives the session view, the viewer's role, the access and a
 * channel for room events (RoomTabProps), and can read the rest with useRoom().
 */
export interface RoomTab {
  id: string;
  label: string;
  Component: ComponentType<RoomTabProps>;
  /** Who sees the tab (default: everyone; a co-signer or witness proves their identity from their invitation page, and signs their own fields). */
  roles?: readonly SessionRole[];
}

export const roomTabs: RoomTab[] = [
  { id: 'chat', label: 'Chat', Component: ChatTab },
  { id: 'documents', label: 'Documents', Component: DocumentsTab },
  { id: 'people', label: 'People', Component: PeopleTab },
  { id: 'identity', label: 'Identity', Component: IdentityTab, roles: ['customer', 'notary'] },
  { id: 'sign-seal', label: 'Sign & seal', Component: SignSealTab },
];

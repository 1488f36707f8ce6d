// Application state of spec §2 "Other UI": toasts, one dialog and a loading modal, driven by one
// pure reducer so every transition is unit-tested and the provider only wires timers and focus.

export type ToastType = 'success' | 'error';

interface Toast {
  readonly id: number;
  readonly type: ToastType;
  readonly text: string;
}

export interface DialogOptions {
  readonly title: string;
  readonly body: string;
  readonly confirmText: string;
  /** Without it the dialog only offers the confirm button. */
  readonly cancelText?: string;
}

export interface OpenDialog extends DialogOptions {
  readonly id: number;
}

export interface AppState {
  readonly toasts: readonly Toast[];
  /** Dialogs wait in order; the first one is on screen. */
  readonly dialogs: readonly OpenDialog[];
  /** Callers currently holding the loading modal open; shown while above zero. */
  readonly loadingHolders: number;
}

export type AppAction =
  | { type: 'toast/add'; toast: Toast }
  | { type: 'toast/remove'; id: number }
  | { type: 'dialog/open'; dialog: OpenDialog }
  | { type: 'dialog/close'; id: number }
  | { type: 'loading/show' }
  | { type: 'loading/hide' };

export const initialAppState: AppState = { toasts: [], dialogs: [], loadingHolders: 0 };

export function appReducer(state: AppState, action: AppAction): AppState {
  switch (action.type) {
    case 'toast/add':
      return { ...state, toasts: [...state.toasts, action.toast] };
    case 'toast/remove':
      return { ...state, toasts: state.toasts.filter((toast) => toast.id !== action.id) };
    case 'dialog/open':
      return { ...state, dialogs: [...state.dialogs, action.dialog] };
    case 'dialog/close':
      return { ...state, dialogs: state.dialogs.filter((dialog) => dialog.id !== action.id) };
    case 'loading/show':
      return { ...state, loadingHolders: state.loadingHolders + 1 };
    case 'loading/hide':
      return { ...state, loadingHolders: Math.max(0, state.loadingHolders - 1) };
  }
}

export function activeDialog(state: AppState): OpenDialog | undefined {
  return state.dialogs[0];
}

export function isLoadingShown(state: AppState): boolean {
  return state.loadingHolders > 0;
}

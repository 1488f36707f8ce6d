import { describe, expect, it } from 'vitest';
import { activeDialog, appReducer, initialAppState, isLoadingShown } from './app-state';
import type { AppAction, AppState } from './app-state';

const run = (...actions: AppAction[]): AppState => actions.reduce(appReducer, initialAppState);

describe('toasts', () => {
  it('stack in the order they were added and each is removed on its own', () => {
    const state = run(
      { type: 'toast/add', toast: { id: 1, type: 'success', text: 'copied' } },
      { type: 'toast/add', toast: { id: 2, type: 'error', text: 'failed' } },
      { type: 'toast/add', toast: { id: 3, type: 'success', text: 'saved' } },
      { type: 'toast/remove', id: 2 },
    );
    expect(state.toasts.map((toast) => [toast.id, toast.type])).toEqual([
      [1, 'success'],
      [3, 'success'],
    ]);
  });

  it('removing a toast that is already gone changes nothing', () => {
    const state = run({ type: 'toast/add', toast: { id: 1, type: 'success', text: 'a' } }, { type: 'toast/remove', id: 1 });
    expect(appReducer(state, { type: 'toast/remove', id: 1 }).toasts).toEqual([]);
  });
});

describe('dialogs', () => {
  const dialog = (id: number) => ({ id, title: `t${id}`, body: 'b', confirmText: 'ok' });

  it('show one at a time, the next after the first closes', () => {
    let state = run({ type: 'dialog/open', dialog: dialog(1) }, { type: 'dialog/open', dialog: dialog(2) });
    expect(activeDialog(state)?.id).toBe(1);
    state = appReducer(state, { type: 'dialog/close', id: 1 });
    expect(activeDialog(state)?.id).toBe(2);
    state = appReducer(state, { type: 'dialog/close', id: 2 });
    expect(activeDialog(state)).toBeUndefined();
  });
});

describe('loading modal', () => {
  it('stays while any caller holds it and never goes below hidden', () => {
    let state = run({ type: 'loading/show' }, { type: 'loading/show' }, { type: 'loading/hide' });
    expect(isLoadingShown(state)).toBe(true);
    state = run({ type: 'loading/show' }, { type: 'loading/hide' }, { type: 'loading/hide' });
    expect(isLoadingShown(state)).toBe(false);
    expect(isLoadingShown(appReducer(state, { type: 'loading/show' }))).toBe(true);
  });
});

import { describe, expect, it } from 'vitest';
import { canUseSection, operatorRoleOf, OPERATOR_ROLES, OPERATOR_SECTIONS, ZAuditQuery, ZMembershipChange } from './operator';

// Decision 0042: the roles as typed, who may use which console section, and the rules of the inputs.

describe('operator roles and sections', () => {
  it('reads a role by its code or its Chinese name, nothing else', () => {
    expect(['管理员', '客服', '财务', '内容编辑'].map(operatorRoleOf)).toEqual([...OPERATOR_ROLES]);
    expect(operatorRoleOf(' finance ')).toBe('finance');
    expect(operatorRoleOf('超级管理员')).toBeUndefined();
    expect(operatorRoleOf('')).toBeUndefined();
  });

  it('lets 管理员 use every section, and each other role only its own', () => {
    for (const section of Object.keys(OPERATOR_SECTIONS) as Array<keyof typeof OPERATOR_SECTIONS>)
      expect(canUseSection(['admin'], section)).toBe(true);
    expect(canUseSection(['support'], 'invoices')).toBe(false);
    expect(canUseSection(['support'], 'users')).toBe(true);
    expect(canUseSection(['finance'], 'users')).toBe(false);
    expect(canUseSection(['finance'], 'invoices')).toBe(true);
    expect(canUseSection(['editor'], 'audit')).toBe(false);
    // Several roles add up.
    expect(canUseSection(['support', 'finance'], 'invoices')).toBe(true);
    expect(canUseSection([], 'overview')).toBe(false);
  });
});

describe('operator inputs', () => {
  it('needs a reason and sane days for a membership change', () => {
    expect(ZMembershipChange.safeParse({ productId: 211, action: 'extend', days: 30, reason: '补偿' }).success).toBe(true);
    expect(ZMembershipChange.safeParse({ productId: 211, action: 'extend', days: 30, reason: ' ' }).error?.issues[0]?.message).toBe(
      '请填写操作原因',
    );
    expect(ZMembershipChange.safeParse({ productId: 211, action: 'extend', days: 1.5, reason: 'x' }).success).toBe(false);
    expect(ZMembershipChange.safeParse({ productId: 211, action: 'delete', reason: 'x' }).success).toBe(false);
    expect(ZMembershipChange.safeParse({ productId: 211, action: 'revoke', reason: 'x', extra: 1 }).success).toBe(false);
  });

  it('takes only real calendar days in the audit filter', () => {
    expect(ZAuditQuery.parse({ from: '2026-02-28' }).from).toBe('2026-02-28');
    for (const day of ['2026-02-30', '2026-13-01', '2026-1-01', 'yesterday'])
      expect(ZAuditQuery.safeParse({ from: day }).success, day).toBe(false);
    expect(ZAuditQuery.parse({}).page).toBe(1);
  });
});

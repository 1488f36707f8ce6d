import { describe, expect, it } from 'vitest';
import { isShareFinal, readShareAnswer, shareApiPath, shareParamsOf } from './share';

const done = {
  status: 'done',
  statusdetail: '转换完成',
  reason: null,
  files: [{ name: '一层平面.dwg', size: 2048, state: 'done', reason: null, outputname: '一层平面.pdf', outputsize: 1024 }],
  expiretime: 1_760_086_400,
  filename: '一层平面.pdf',
  downurl: '/api/v4/download/abc?sig=1',
};

describe("the share page's call", () => {
  it('asks for the task by its tag and code', () => {
    expect(shareApiPath('a/b', 'c&d')).toBe('/api/file/share/a%2Fb?code=c%26d');
  });

  it('reads the task beside the envelope or in data', () => {
    expect(readShareAnswer({ code: 10000, message: '', ...done })).toEqual({ kind: 'view', view: done });
    expect(readShareAnswer({ code: 0, data: done })).toEqual({ kind: 'view', view: done });
    const running = { code: 10000, status: 'processing', files: [{ name: 'a.dwg', size: 1, state: 'converting' }], expiretime: 1 };
    expect(readShareAnswer(running)).toEqual({
      kind: 'view',
      view: {
        status: 'processing',
        statusdetail: '',
        reason: null,
        files: [{ name: 'a.dwg', size: 1, state: 'converting', reason: null, outputname: null, outputsize: null }],
        expiretime: 1,
      },
    });
  });

  it("shows a refusal with the server's words, and asks again after anything unreadable", () => {
    expect(readShareAnswer({ code: 15001, message: '转换任务不存在或已过期' })).toEqual({
      kind: 'refused',
      message: '转换任务不存在或已过期',
    });
    expect(readShareAnswer('<html>502</html>')).toEqual({ kind: 'unreadable' });
    expect(readShareAnswer({ code: 500 })).toEqual({ kind: 'unreadable' });
    expect(readShareAnswer({ code: 10000, status: 'sleeping', files: [], expiretime: 1 })).toEqual({ kind: 'unreadable' });
    expect(readShareAnswer({ code: 10000, status: 'done', files: [{ name: 'a' }], expiretime: 1 })).toEqual({ kind: 'unreadable' });
  });

  it('stops asking once the task has ended', () => {
    expect(['done', 'failed', 'cancelled'].every((status) => isShareFinal({ status: status as 'done' }))).toBe(true);
    expect(isShareFinal({ status: 'queued' })).toBe(false);
  });

  it('needs both the tag and the code from the link', () => {
    expect(shareParamsOf(new URLSearchParams('tasktag=t1&code=c1'))).toEqual({ tasktag: 't1', code: 'c1' });
    expect(shareParamsOf(new URLSearchParams('tasktag=t1'))).toBeNull();
    expect(shareParamsOf(new URLSearchParams('tasktag=%20&code=c'))).toBeNull();
  });
});

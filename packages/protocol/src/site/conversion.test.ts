import { describe, expect, it } from 'vitest';
import { CONVERSION_MESSAGES, ZUploadParRequest, fileNamesOf, sharePath } from './conversion';

// The rules the tool pages and the API share (decision 0019).

const base = { filename: 'plan.dwg', filecount: 1, tasktype: 'cad2pdf', outputfileextension: 'pdf' };

describe('uploadpar fields', () => {
  it('reads the options from parainfo, defaults when it is empty', () => {
    expect(ZUploadParRequest.parse({ ...base, parainfo: '{"paper":"A3","color":"mono"}' }).parainfo).toEqual({
      paper: 'A3',
      color: 'mono',
    });
    expect(ZUploadParRequest.parse({ ...base, parainfo: '' }).parainfo).toEqual({});
    expect(ZUploadParRequest.parse(base).parainfo).toEqual({});
  });

  it('accepts its own output again: the web client sends what it parsed', () => {
    const once = ZUploadParRequest.parse({ ...base, parainfo: '{"paper":"A3"}' });
    expect(ZUploadParRequest.parse(once)).toEqual(once);
    expect(ZUploadParRequest.parse(ZUploadParRequest.parse(base)).parainfo).toEqual({});
  });

  it('refuses broken or unknown options with one message', () => {
    for (const parainfo of ['{paper:A3}', '{"paper":"B5"}', '{"shell":"rm -rf /"}', '[1]', 42]) {
      const issue = ZUploadParRequest.safeParse({ ...base, parainfo }).error?.issues[0];
      expect(issue?.message, String(parainfo)).toBe(CONVERSION_MESSAGES.parainfo);
      expect(issue?.path[0]).toBe('parainfo');
    }
  });

  it('names the tool, the output and the version it does not know', () => {
    expect(ZUploadParRequest.safeParse({ ...base, tasktype: 'cad2doc' }).error?.issues[0]?.message).toBe(CONVERSION_MESSAGES.taskType);
    expect(ZUploadParRequest.safeParse({ ...base, outputfileextension: 'exe' }).error?.issues[0]?.message).toBe(
      CONVERSION_MESSAGES.outputExtension,
    );
    expect(ZUploadParRequest.safeParse({ ...base, fileversion: '2019' }).error?.issues[0]?.message).toBe(CONVERSION_MESSAGES.fileVersion);
  });
});

describe('file names', () => {
  it('takes one name, or a JSON list of filecount names, without their folders', () => {
    expect(fileNamesOf('C:\\图纸\\一层平面.dwg', 1)).toEqual(['一层平面.dwg']);
    expect(fileNamesOf('["a.dxf","../../etc/b.dwg"]', 2)).toEqual(['a.dxf', 'b.dwg']);
  });

  it('refuses a count that does not match, a broken list and empty names', () => {
    expect(fileNamesOf('["a.dxf"]', 2)).toBeNull();
    expect(fileNamesOf('["a.dxf",', 1)).toBeNull();
    expect(fileNamesOf('dir/', 1)).toBeNull();
    expect(fileNamesOf('["a.dxf", 3]', 2)).toBeNull();
  });
});

describe('the phone link', () => {
  it('carries the tasktag and the share code', () => {
    expect(sharePath('abc-_1', 'c0de')).toBe('/share.html?tasktag=abc-_1&code=c0de');
  });
});

import { describe, expect, it } from 'vitest';
import { checkSoftwareFiles, compareVersions, parseSoftwareFile, type SoftwareDocument } from './software-source';
import { ImportError, type ImportProblem } from '../../lib/import-error';

// The rules of content/software/*.yml (content/software/README.md).

const GOOD = `name: 迅捷CAD看图
tagline: 只看图、不改图时的轻量选择，测量、批注、打印一应俱全。
help: [1003]
features:
  - title: 大图纸快速打开
    text: 二三十 MB 的总平面图几秒打开。
  - title: 测量长度与面积
    text: 点选两点测距离，选择闭合多段线测面积。
  - title: 打印与转PDF
    text: 支持 monochrome.ctb 黑白打印。
platforms:
  windows32:
    file: viewer_3.5_x86.exe
    size: 35655680
    sha256: 4f842f168ba1732a8ab9e35b6ac6645e739e15ecf7aa55ddb99db9a72f981236
  windows:
    file: viewer_3.5_x64.exe
    size: 38273024
    sha256: C748A4AD391BE48620B453C42F35D8AF32624CCA6A33327112390481492F0BDE
requirements:
  - item: 操作系统
    minimum: Windows 7 SP1 及以上
    recommended: Windows 10 / 11 64 位
  - item: 内存
    minimum: 4 GB
releases:
  - version: "3.10"
    date: 2026-04-22
    added:
      - 新增审图批注导出
  - version: "3.9"
    date: 2025-11-18
    fixed:
      - 修复打印预览偏移
`;

function bytes(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}

function problemsOf(text: string, name = 'download-lookchart.yml'): ImportProblem[] {
  const parsed = parseSoftwareFile(name, bytes(text));
  if (!Array.isArray(parsed)) throw new Error('expected problems');
  return parsed;
}

function fieldsOf(text: string, name?: string): string[] {
  return problemsOf(text, name).map((problem) => problem.field);
}

describe('compareVersions', () => {
  it('compares numerically, part by part', () => {
    expect(compareVersions('4.10', '4.9')).toBe(1);
    expect(compareVersions('5.0', '5.0.0')).toBe(0);
    expect(compareVersions('3.3.2', '3.4.0')).toBe(-1);
  });
});

describe('parseSoftwareFile', () => {
  it('reads a good file: key from the name, platforms in page order, current release first', () => {
    const document = parseSoftwareFile('download-lookchart.yml', bytes(GOOD)) as SoftwareDocument;
    expect(document.key).toBe('download-lookchart');
    expect(document.sourcePath).toBe('content/software/download-lookchart.yml');
    expect(document.files.map((file) => file.platform)).toEqual(['windows', 'windows32']);
    expect(document.releases[0]).toEqual({
      version: '3.10',
      releasedOn: '2026-04-22',
      notes: { added: ['新增审图批注导出'], improved: [], fixed: [] },
    });
    expect(document.requirements[1]).toEqual({ item: '内存', minimum: '4 GB', recommended: null });
    expect(document.productId).toBeNull();
  });

  it('asks for quoted versions, which YAML would otherwise read as numbers', () => {
    const problems = problemsOf(GOOD.replace('version: "3.10"', 'version: 3.10'));
    expect(problems).toEqual([expect.objectContaining({ field: 'releases.0.version', message: expect.stringContaining('quoted') })]);
  });

  it('refuses releases out of order, dates that do not exist and empty releases', () => {
    expect(fieldsOf(GOOD.replace('version: "3.9"', 'version: "3.11"'))).toEqual(['releases.1.version']);
    expect(fieldsOf(GOOD.replace('date: 2025-11-18', 'date: 2026-05-01'))).toEqual(['releases.1.date']);
    expect(fieldsOf(GOOD.replace('date: 2025-11-18', 'date: 2025-02-30'))).toEqual(['releases.1.date']);
    expect(fieldsOf(GOOD.replace('    fixed:\n      - 修复打印预览偏移\n', ''))).toEqual(['releases.1']);
  });

  it('refuses unknown platforms, files that do not fit their platform and sizes that are not bytes', () => {
    expect(fieldsOf(GOOD.replace('  windows32:', '  linux:'))).toEqual(['platforms.linux']);
    expect(fieldsOf(GOOD.replace('viewer_3.5_x86.exe', 'viewer_3.5.dmg'))).toEqual(['platforms.windows32.file']);
    expect(fieldsOf(GOOD.replace('size: 35655680', 'size: 34.2'))).toEqual(['platforms.windows32.size']);
    expect(fieldsOf(GOOD.replace('size: 35655680', 'size: "34 MB"'))).toEqual(['platforms.windows32.size']);
    expect(fieldsOf(GOOD.replace('file: viewer_3.5_x86.exe', 'file: ../../etc/passwd.exe'))).toEqual(['platforms.windows32.file']);
  });

  it('wants the SHA-256 of every installer (64 hex digits, kept in lower case) and none for a store page', () => {
    expect(fieldsOf(GOOD.replace('    sha256: 4f842f168ba1732a8ab9e35b6ac6645e739e15ecf7aa55ddb99db9a72f981236\n', ''))).toEqual([
      'platforms.windows32.sha256',
    ]);
    expect(
      fieldsOf(
        GOOD.replace(
          '4f842f168ba1732a8ab9e35b6ac6645e739e15ecf7aa55ddb99db9a72f981236',
          '4f842f168ba1732a8ab9e35b6ac6645e739e15ecf7aa55ddb99db9a72f98123',
        ),
      ),
    ).toEqual(['platforms.windows32.sha256']);
    expect(
      fieldsOf(
        GOOD.replace(
          '4f842f168ba1732a8ab9e35b6ac6645e739e15ecf7aa55ddb99db9a72f981236',
          '4f842f168ba1732a8ab9e35b6ac6645e739e15ecf7aa55ddb99db9a72f98123g',
        ),
      ),
    ).toEqual(['platforms.windows32.sha256']);
    const store = GOOD.replace('  windows32:\n    file: viewer_3.5_x86.exe', '  ios:\n    url: https://apps.apple.com/cn/app/id1');
    expect(fieldsOf(store)).toEqual(['platforms.ios.sha256']);
    const parsed = parseSoftwareFile('download-lookchart.yml', bytes(GOOD));
    if (Array.isArray(parsed)) throw new Error(parsed.map((problem) => problem.message).join('; '));
    expect(parsed.files.map((file) => file.sha256)).toEqual([
      'c748a4ad391be48620b453c42f35d8af32624cca6a33327112390481492f0bde',
      '4f842f168ba1732a8ab9e35b6ac6645e739e15ecf7aa55ddb99db9a72f981236',
    ]);
  });

  it('wants iOS as an App Store page and every other platform as a file', () => {
    const ios = GOOD.replace('  windows32:\n    file: viewer_3.5_x86.exe', '  ios:\n    file: viewer.ipa');
    expect(fieldsOf(ios)).toEqual(['platforms.ios.file']);
    const foreignStore = GOOD.replace('  windows32:\n    file: viewer_3.5_x86.exe', '  ios:\n    url: https://example.com/app').replace(
      '    sha256: 4f842f168ba1732a8ab9e35b6ac6645e739e15ecf7aa55ddb99db9a72f981236\n',
      '',
    );
    expect(fieldsOf(foreignStore)).toEqual(['platforms.ios.url']);
    const both = GOOD.replace('    file: viewer_3.5_x86.exe', '    file: viewer_3.5_x86.exe\n    url: https://apps.apple.com/cn/app/id1');
    expect(fieldsOf(both)).toEqual(['platforms.windows32']);
  });

  it('keeps the editor at version 5.0 (spec §9) and product ids to known products', () => {
    const editor = `product_id: 211\n${GOOD.replace('version: "3.10"', 'version: "5.1"')}`;
    expect(problemsOf(editor, 'download.yml')).toEqual([
      expect.objectContaining({ field: 'releases.0.version', message: expect.stringContaining('5.0') }),
    ]);
    expect(fieldsOf(`product_id: 999\n${GOOD}`)).toEqual(['product_id']);
  });

  it('names unknown fields and bad YAML', () => {
    expect(problemsOf(`price: 88\n${GOOD}`)).toEqual([expect.objectContaining({ field: 'file', message: 'unknown field(s): price' })]);
    expect(problemsOf('name: [unclosed')[0]?.message).toMatch(/^is not valid YAML/);
    expect(fieldsOf(GOOD, 'Download Viewer.yml')).toEqual(['file']);
  });
});

describe('checkSoftwareFiles', () => {
  it('refuses one installer file given to two platforms or pages, naming every problem', () => {
    const copy = GOOD.replace('viewer_3.5_x64.exe', 'viewer_3.5_x86.exe');
    let refused: unknown = null;
    try {
      checkSoftwareFiles([
        { name: 'download-lookchart.yml', bytes: bytes(GOOD) },
        { name: 'download-holdall.yml', bytes: bytes(copy) },
      ]);
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(ImportError);
    const messages = (refused as ImportError).problems.map((problem) => `${problem.file} ${problem.field}: ${problem.message}`);
    expect(messages).toEqual([
      'content/software/download-holdall.yml platforms.windows: viewer_3.5_x86.exe is already the file of download-lookchart windows32',
      'content/software/download-holdall.yml platforms.windows32: viewer_3.5_x86.exe is already the file of download-lookchart windows32',
    ]);
  });
});

import fs from 'node:fs';
import path from 'node:path';

const WEB = path.join(__dirname, '../../web/src');

const filesUnder = (dir: string): string[] =>
  fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => (entry.isDirectory() ? filesUnder(path.join(dir, entry.name)) : [path.join(dir, entry.name)]));

const relative = (file: string) => path.relative(WEB, file).split(path.sep).join('/');

/**
 * The dashboard by feature (docs/dashboard.md "How the code is laid out"): components reach the API through their
 * feature's `api/` hooks and request functions, never the typed client inline, there is no `pages/` folder, and the
 * logic's tests sit beside it (jest runs them with test/'s: jest.config.js).
 */
describe('web/src by feature', () => {
  it('no component calls the API client itself', () => {
    const components = filesUnder(path.join(WEB, 'features')).filter((file) => /\/components\/.+\.tsx?$/.test(file.split(path.sep).join('/')));
    expect(components.length).toBeGreaterThan(50);
    const inline = components.filter((file) => {
      const text = fs.readFileSync(file, 'utf8');
      return /\bapi\.(GET|POST|PUT|PATCH|DELETE)\(/.test(text) || /from '(\.\.\/)+api\/client'/.test(text);
    });
    expect(inline.map(relative)).toEqual([]);
  });

  it('a test sits beside the module it tests and renders nothing: pure logic, no service, no DOM', () => {
    const tests = filesUnder(WEB).filter((file) => /\.test\.tsx?$/.test(file));
    expect(tests.length).toBeGreaterThan(0);
    const astray = tests.filter((file) => {
      const base = file.replace(/\.test\.tsx?$/, '');
      return !fs.existsSync(`${base}.ts`) && !fs.existsSync(`${base}.tsx`);
    });
    expect(astray.map(relative)).toEqual([]);
    const rendering = tests.filter((file) => /from '(react-dom|@testing-library\/[\w-]+)(\/[\w-]+)?'/.test(fs.readFileSync(file, 'utf8')));
    expect(rendering.map(relative)).toEqual([]);
  });

  it('there is no src/pages: every screen belongs to a feature', () => {
    expect(fs.existsSync(path.join(WEB, 'pages'))).toBe(false);
  });
});

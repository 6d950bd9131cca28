// Which executable the extension starts the ptolog language server with: the `ptolog.path`
// setting, else the workspace's own install (node_modules/.bin/ptolog), else `ptolog` on PATH.
// Never a download: a missing server is an error message saying how to install it.
const { statSync } = require('node:fs');
const path = require('node:path');

const isFile = (p) => {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
};

/**
 * The server's executable: { command } or { error } (a message for the user).
 * configured: the ptolog.path setting ('' when unset); folders: the workspace folders' paths;
 * envPath: PATH; platform: process.platform.
 */
function serverCommand({ configured, folders, envPath, platform }) {
  const names = platform === 'win32' ? ['ptolog.cmd', 'ptolog.exe', 'ptolog'] : ['ptolog'];
  if (configured) {
    const candidates = path.isAbsolute(configured) ? [configured] : folders.map((f) => path.resolve(f, configured));
    const found = candidates.find(isFile);
    return found
      ? { command: found }
      : { error: `ptolog.path: ${configured} is not a file (looked for ${candidates.join(', ') || configured}).` };
  }
  for (const f of folders) {
    for (const n of names) {
      const p = path.join(f, 'node_modules', '.bin', n);
      if (isFile(p)) return { command: p };
    }
  }
  for (const dir of (envPath || '').split(path.delimiter)) {
    if (!dir) continue;
    for (const n of names) {
      const p = path.join(dir, n);
      if (isFile(p)) return { command: p };
    }
  }
  return {
    error:
      'ptolog was not found in the workspace (node_modules/.bin/ptolog) nor on PATH. Install it (npm install --save-dev <your ptolog checkout or tarball>) or set ptolog.path; nothing is downloaded.',
  };
}

module.exports = { serverCommand };

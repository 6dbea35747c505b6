/**
 * Shown instead of the app when the environment is incomplete (ARCHITECTURE.md §1). It is plain
 * HTML with inline styles on purpose: it must be readable even when nothing else can start.
 */
export function EnvErrorPage({ issues }: { issues: readonly string[] }) {
  return (
    <main style={{ fontFamily: 'system-ui, sans-serif', maxWidth: 720, margin: '48px auto', padding: '0 16px', lineHeight: 1.5 }}>
      <h1>Kinora cannot start</h1>
      <p>The environment is incomplete. Set these variables and build again:</p>
      <ul>
        {issues.map((issue) => (
          <li key={issue}>
            <code>{issue}</code>
          </li>
        ))}
      </ul>
    </main>
  );
}

// The login form: the password goes to the console with the session's CSRF token; a good one
// gives a new session cookie and the page it was asked for.
import { loadSession, post } from './api.js';

const form = document.getElementById('login');
const error = document.getElementById('error');

/** Only a path of this console, never another site (`//host`) . */
function nextPage() {
  const next = new URLSearchParams(location.search).get('next') ?? '/';
  return next.startsWith('/') && !next.startsWith('//') && !next.startsWith('/\\') ? next : '/';
}

form.addEventListener('submit', async (event) => {
  event.preventDefault();
  error.textContent = '';
  const { status, body } = await post('/api/login', { password: document.getElementById('password').value });
  if (status === 200) location.assign(nextPage());
  else error.textContent = body.error ?? `error ${status}`;
});

loadSession().then((session) => {
  if (session.authenticated) location.assign(nextPage());
});

/** The renderer's entry: styles, then the app shell mounted on #root. */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app.tsx';
import './styles/index.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element: the renderer cannot start.');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);

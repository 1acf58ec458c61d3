// Moves that cannot be taken back ask once before they are made: the
// first press turns the button into a question, a second press within a
// few seconds makes the move, and otherwise the button goes back.
const WAIT_MS = 5000;

// twice returns a click handler for button that runs act on a second
// press; question is what the button asks meanwhile.
export function twice(question, act) {
  return (e) => {
    const button = e.currentTarget;
    if (button.classList.contains("confirming")) {
      clearTimeout(button.confirmTimer);
      button.classList.remove("confirming");
      act();
      return;
    }
    const label = button.textContent;
    button.classList.add("confirming");
    button.textContent = question;
    button.setAttribute("aria-live", "polite");
    button.confirmTimer = setTimeout(() => {
      button.classList.remove("confirming");
      button.textContent = label;
    }, WAIT_MS);
  };
}

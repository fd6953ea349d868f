export const metadata = { title: "sessiontree in a Next.js app" };

/** The root layout: the page as it comes. */
export default function RootLayout({ children }) {
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}

// A static export (next build writes out/): the one line a static site
// needs in any Next.js app. Nothing here is about sessiontree.
export default { output: "export" };

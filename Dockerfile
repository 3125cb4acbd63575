# courtside daemon and workers. Build: docker build -t courtside .
FROM node:22-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY streams ./streams
COPY workers ./workers
RUN npm run build && npm prune --omit=dev

FROM node:22-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/src/server/overlay ./src/server/overlay
USER node
EXPOSE 8080
ENTRYPOINT ["node", "--max-old-space-size=512", "dist/src/cli.js"]
CMD ["serve"]

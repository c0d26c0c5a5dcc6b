"""What needs nothing of piquet (layer 0, beside the core): process pools whose workers
end with their parent (:mod:`~piquet.util.workers`)."""

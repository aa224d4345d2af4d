" .cnpi files are cnpi programs.
autocmd BufRead,BufNewFile *.cnpi setfiletype cnpi

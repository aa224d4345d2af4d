" Syntax highlighting for .cnpi files (cnpi, the Combinatory NPI).
if exists("b:current_syntax")
  finish
endif
syntax keyword cnpiKeyword env state def if else while pass return combinator act observe detects
syntax keyword cnpiOperator and or not
syntax keyword cnpiCombinator seq cond linrec treerec
syntax keyword cnpiConstant END LAST LEFT RIGHT OK WHITE GREY BLACK NOP
syntax match cnpiNumber "\<\d\+\>"
syntax match cnpiComment "#.*$"
highlight default link cnpiKeyword Keyword
highlight default link cnpiOperator Operator
highlight default link cnpiCombinator Function
highlight default link cnpiConstant Constant
highlight default link cnpiNumber Number
highlight default link cnpiComment Comment
let b:current_syntax = "cnpi"
